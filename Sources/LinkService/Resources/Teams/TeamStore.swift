import Foundation
import LinkKit
import Postgres

/// The SQL of `teams`.
enum TeamStore {
    /// Whether `workspace` has registered the Apple team `teamID`.
    static func exists(_ teamID: String, workspace: UUID, on connection: Connection) throws -> Bool {
        try connection.query("SELECT 1 FROM teams WHERE workspace_id = \(workspace) AND team_id = \(teamID)").count > 0
    }
}
