import Foundation
import LinkKit
import Postgres

/// A registered Apple team ID (the prefix of every iOS app ID in the workspace).
struct Team: VersionedResource {
    static let auditType = "team"

    let id: UUID
    let teamID: String
    var name: String
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    /// Sort key for pagination.
    let sortMicros: Int64

    var json: JSONValue {
        .object([
            "teamId": .string(teamID),
            "name": .string(name),
            "createdAt": .timestamp(createdAt),
            "updatedAt": .timestamp(updatedAt),
        ])
    }

    var auditID: String { teamID }
}
