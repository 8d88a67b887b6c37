import Foundation
import LinkKit
import Postgres

/// A registered Apple team ID (the prefix of every iOS app ID in the workspace).
struct Team: Sendable {
    let id: UUID
    let teamID: String
    var name: String
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    /// Sort key for pagination.
    let sortMicros: Int64

    static let columns = "id, team_id, name, version, created_at, updated_at, (extract(epoch FROM created_at) * 1000000)::int8"

    init(row: Row) throws {
        (id, teamID, name, version, createdAt, updatedAt, sortMicros) = try row.decode((UUID, String, String, Int, Date, Date, Int64).self)
    }

    var json: JSONValue {
        .object([
            "teamId": .string(teamID),
            "name": .string(name),
            "createdAt": .timestamp(createdAt),
            "updatedAt": .timestamp(updatedAt),
        ])
    }

    var location: String { "/v1/teams/\(teamID)" }
}
