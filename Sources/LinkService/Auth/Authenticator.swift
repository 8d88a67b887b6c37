import Foundation
import HTTPServer
import Postgres

/// Turns `Authorization: Bearer <key>` into a `Principal`, or refuses with 401/403.
///
/// Keys are looked up on every call, so a revocation takes effect at once on every node.
public struct Authenticator: Sendable {
    let pool: ConnectionPool

    public init(pool: ConnectionPool) {
        self.pool = pool
    }

    /// - Throws: `ServiceError.unauthorized` for a missing, malformed, unknown or revoked key;
    ///   `.forbidden` when the key's scope is below `scope`.
    public func authenticate(_ request: Request, requiring scope: Scope) throws -> Principal {
        guard let header = request.headers["Authorization"] else {
            throw ServiceError.unauthorized("Send an API key as 'Authorization: Bearer <key>'.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
              let presented = APIKeySecret(parsing: parts[1].trimmingCharacters(in: .whitespaces))
        else { throw ServiceError.unauthorized("The Authorization header must be 'Bearer <key>' with a linkd API key.") }
        let row = try pool.withConnection { connection in
            try connection.query("""
                SELECT workspace_id, secret_hash, scope FROM api_keys
                WHERE id = \(presented.keyID) AND revoked_at IS NULL
                """).first
        }
        guard let row else { throw ServiceError.unauthorized("The API key is unknown or revoked.") }
        let (workspaceID, storedHash, scopeName) = try row.decode((UUID, [UInt8], String).self)
        guard presented.matches(storedHash: storedHash), let keyScope = Scope(rawValue: scopeName) else {
            throw ServiceError.unauthorized("The API key is unknown or revoked.")
        }
        guard keyScope >= scope else {
            throw ServiceError.forbidden("This call needs a key with the '\(scope.rawValue)' scope; this key has '\(keyScope.rawValue)'.")
        }
        return Principal(workspaceID: workspaceID, keyID: presented.keyID, scope: keyScope)
    }
}
