import Foundation
import LinkKit
import Postgres

/// The SQL of `workspaces` and `workspace_host_suffixes`.
enum WorkspaceStore {
    /// The id of the workspace `name`, created when it does not exist yet.
    static func ensure(_ name: String, on connection: Connection) throws -> UUID {
        try connection.query(
            """
            INSERT INTO workspaces (name) VALUES (\(name))
            ON CONFLICT (name) DO UPDATE SET name = excluded.name
            RETURNING id
            """
        ).first!.decode(0, as: UUID.self)
    }

    /// The id and name of the workspace `name`, nil when there is none.
    static func find(_ name: String, on connection: Connection) throws -> (id: UUID, name: String)? {
        try connection.query("SELECT id, name FROM workspaces WHERE name = \(name)").first?.decode((UUID, String).self)
    }

    /// The name of the workspace `id`, nil when there is none.
    static func name(of id: UUID, on connection: Connection) throws -> String? {
        try connection.query("SELECT name FROM workspaces WHERE id = \(id)").first?.decode(0, as: String.self)
    }

    /// Every workspace's id and name, by name.
    static func all(on connection: Connection) throws -> [(id: UUID, name: String)] {
        try connection.query("SELECT id, name FROM workspaces ORDER BY name").map { try $0.decode((UUID, String).self) }
    }

    /// The workspace's allowed hostname suffixes, sorted (empty: any hostname).
    static func suffixes(of workspace: UUID, on connection: Connection) throws -> [String] {
        try connection.query("SELECT suffix FROM workspace_host_suffixes WHERE workspace_id = \(workspace) ORDER BY suffix")
            .map { try $0.decode(0, as: String.self) }
    }

    static func addSuffix(_ suffix: String, workspace: UUID, on connection: Connection) throws {
        try connection.execute(
            """
            INSERT INTO workspace_host_suffixes (workspace_id, suffix) VALUES (\(workspace), \(suffix)) ON CONFLICT DO NOTHING
            """)
    }

    /// Whether the workspace had the suffix (it has not any more).
    static func removeSuffix(_ suffix: String, workspace: UUID, on connection: Connection) throws -> Bool {
        try connection.execute(
            """
            DELETE FROM workspace_host_suffixes WHERE workspace_id = \(workspace) AND suffix = \(suffix)
            """) > 0
    }

    /// The hostnames of the workspace's domains, sorted.
    static func hostnames(of workspace: UUID, on connection: Connection) throws -> [String] {
        try connection.query("SELECT hostname FROM domains WHERE workspace_id = \(workspace) ORDER BY hostname")
            .map { try $0.decode(0, as: String.self) }
    }
}
