import Foundation
import LinkKit
import Postgres

/// Workspaces are created implicitly by `linkd keys create --workspace NAME`, the bootstrap path.
public enum Workspace {
    /// Creates a key acting as `role` (by default the one `scope` implies), and the workspace when it does not exist
    /// yet, and returns the key's token.
    /// - Throws: `ServiceError.validation` for an empty or overlong name or key name, or one holding a NUL;
    ///   `PostgresError` when the database fails.
    public static func createKey(
        pool: ConnectionPool, workspace name: String, scope: Scope, role: Role? = nil,
        keyName: String = ""
    ) throws -> String {
        guard !name.isEmpty, TextLimit.workspaceName.allows(name), !name.utf8.contains(0) else {
            throw ServiceError.validation([
                .init(
                    pointer: "/workspace",
                    detail:
                        "A workspace name has 1 to 100 characters (Unicode code points), none of them NUL or a bidirectional control (U+202A-202E, U+2066-2069)."
                )
            ])
        }
        guard TextLimit.keyName.allows(keyName), !keyName.utf8.contains(0) else {
            throw ServiceError.validation([
                .init(
                    pointer: "/name",
                    detail:
                        "A key name has at most 200 characters (Unicode code points), none of them NUL or a bidirectional control (U+202A-202E, U+2066-2069)."
                )
            ])
        }
        return try pool.withTransaction { connection in
            let workspaceID = try WorkspaceStore.ensure(name, on: connection)
            let role = role ?? Role.implied(by: scope)
            let (key, secret) = try KeyStore.create(on: connection, workspaceID: workspaceID, name: keyName, scope: scope, role: role)
            let principal = Principal(workspaceID: workspaceID, keyID: key.id, scope: scope, role: role)
            try AuditStore.record(on: connection, principal, .create, type: "key", id: key.id.canonicalText, after: key.json)
            return secret.token
        }
    }
}
