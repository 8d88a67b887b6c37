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

    var json: JSONValue { Self.members.json(self) }

    /// The API's form, declared once for the answers (`json`) and the document's `Team` component.
    static let members: [ResourceMember<Team>] = [
        .required("teamId", Schema.teamID) { .string($0.teamID) },
        .required("name", Schema.string(maxLength: TextLimit.name.scalars)) { .string($0.name) },
        .required("createdAt", Schema.created) { .timestamp($0.createdAt) },
        .required("updatedAt", Schema.updated) { .timestamp($0.updatedAt) },
    ]

    var auditID: String { teamID }
}
