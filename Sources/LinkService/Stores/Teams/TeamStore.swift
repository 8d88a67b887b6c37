import Foundation
import LinkKit
import Postgres

/// The SQL of `teams` and the decoding of its rows.
enum TeamStore: ResourceStore {
    typealias Resource = Team
    static let table = "teams"
    static let columns = "id, team_id, name, version, created_at, updated_at, (extract(epoch FROM created_at) * 1000000)::int8"
    static let address = (key: "team_id", owner: "workspace_id")

    /// Registers the Apple team `teamID` in `workspace`.
    static func insert(_ teamID: String, name: String, workspace: UUID, on connection: Connection) throws -> Team {
        try insert("workspace_id, team_id, name", [workspace, teamID, name], on: connection)
    }

    /// Renames the team `id` (nil: keeps its name) as a new version.
    static func rename(_ id: UUID, to name: String?, on connection: Connection) throws -> Team {
        try update(id, set: "name = coalesce($2, name)", [name], on: connection)
    }

    /// Whether `workspace` has registered the Apple team `teamID`.
    static func exists(_ teamID: String, workspace: UUID, on connection: Connection) throws -> Bool {
        try connection.query("SELECT 1 FROM teams WHERE workspace_id = \(workspace) AND team_id = \(teamID)").count > 0
    }

    /// How many apps of `workspace` belong to the team.
    static func appCount(_ teamID: String, workspace: UUID, on connection: Connection) throws -> Int {
        try connection.query("SELECT count(*) FROM apps WHERE workspace_id = \(workspace) AND team_id = \(teamID)").first!.decode(
            0, as: Int.self)
    }
}

extension Team {
    init(row: Row) throws {
        (id, teamID, name, version, createdAt, updatedAt, sortMicros) = try row.decode((UUID, String, String, Int, Date, Date, Int64).self)
    }
}
