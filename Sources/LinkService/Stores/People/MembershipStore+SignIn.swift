import Foundation
import Postgres

extension MembershipStore {
    /// A workspace a person belongs to, as signing in needs it.
    struct SignInWorkspace: Sendable {
        let id: UUID
        let name: String
        let role: Role
        /// Its members must sign in through its identity provider (`workspace_sso.required`).
        let requiresSSO: Bool
    }

    /// The workspaces `person` belongs to, by name, with whether each requires single sign-on.
    static func signInWorkspaces(of person: UUID, on connection: Connection) throws -> [SignInWorkspace] {
        try connection.query(
            """
            SELECT w.id, w.name, m.role, coalesce(s.required, false)
            FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
            LEFT JOIN workspace_sso s ON s.workspace_id = m.workspace_id
            WHERE m.person_id = \(person) ORDER BY w.name, w.id
            """
        ).compactMap { row in
            let (id, name, role, sso) = try row.decode((UUID, String, String, Bool).self)
            return Role(rawValue: role).map { SignInWorkspace(id: id, name: name, role: $0, requiresSSO: sso) }
        }
    }
}
