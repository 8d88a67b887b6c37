import Foundation
import Postgres

/// The SQL of `memberships`: a person's role in each workspace they belong to.
enum MembershipStore {
    /// Makes `person` a member of `workspace` with `role`, or changes the role of a member.
    static func set(_ person: UUID, of workspace: UUID, role: Role, on connection: Connection) throws {
        try connection.execute(
            """
            INSERT INTO memberships (workspace_id, person_id, role) VALUES (\(workspace), \(person), \(role.rawValue))
            ON CONFLICT (workspace_id, person_id) DO UPDATE SET role = excluded.role
            """)
    }

    /// The role of `person` in `workspace`; nil when they are not a member.
    static func role(of person: UUID, in workspace: UUID, on connection: Connection) throws -> Role? {
        try connection.query(
            """
            SELECT role FROM memberships WHERE workspace_id = \(workspace) AND person_id = \(person)
            """
        ).first.flatMap { Role(rawValue: try $0.decode(0, as: String.self)) }
    }

    /// The workspaces `person` belongs to, with their names and the person's role, by name.
    static func workspaces(of person: UUID, on connection: Connection) throws -> [(id: UUID, name: String, role: Role)] {
        try connection.query(
            """
            SELECT w.id, w.name, m.role FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
            WHERE m.person_id = \(person) ORDER BY w.name
            """
        ).compactMap { row in
            let (id, name, role) = try row.decode((UUID, String, String).self)
            return Role(rawValue: role).map { (id, name, $0) }
        }
    }
}
