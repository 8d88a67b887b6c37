import Foundation
import HTTPServer
import Postgres

/// Turns `Authorization: Bearer <key>` into a `Principal`, or refuses with 401/403.
///
/// Keys are checked against the `KeyCache` while the change feed is connected, else against the
/// database; either way a revocation takes effect at once on every node.
public struct Authenticator: Sendable {
    let pool: ConnectionPool
    let cache: KeyCache
    /// Whether cached keys can be trusted now (the change feed that carries revocations is connected).
    let cacheIsCurrent: @Sendable () -> Bool

    init(pool: ConnectionPool, cache: KeyCache = KeyCache(), cacheIsCurrent: @escaping @Sendable () -> Bool = { false }) {
        self.pool = pool
        self.cache = cache
        self.cacheIsCurrent = cacheIsCurrent
    }

    /// - Throws: `ServiceError.unauthorized` for a missing, malformed, unknown or revoked key;
    ///   `.forbidden` when the key's scope is below `scope`.
    public func authenticate(_ request: Request, requiring scope: Scope) throws -> Principal {
        guard let header = request.headers["Authorization"] else {
            throw ServiceError.unauthorized("Send an API key as 'Authorization: Bearer <key>'.")
        }
        guard let presented = APIKeySecret(authorization: header) else {
            throw ServiceError.unauthorized("The Authorization header must be 'Bearer <key>' with a linkd API key.")
        }
        guard let key = try verifiedKey(presented) else {
            throw ServiceError.unauthorized("The API key is unknown or revoked.")
        }
        guard key.scope >= scope else {
            throw ServiceError.forbidden("This call needs a key with the '\(scope.rawValue)' scope; this key has '\(key.scope.rawValue)'.")
        }
        return Principal(workspaceID: key.workspaceID, keyID: presented.keyID, scope: key.scope)
    }

    /// The key `presented` names when its secret is that key's; nil when the key is unknown, revoked or the
    /// secret wrong. From the cache when it is current: a secret verified before is compared, not hashed.
    private func verifiedKey(_ presented: APIKeySecret) throws -> KeyCache.Entry? {
        let trusted = cacheIsCurrent()
        if trusted, let cached = cache.lookup(presented.keyID) {
            if let verified = cached.verifiedSecret, presented.hasSecret(verified) { return cached }
            guard presented.matches(storedHash: cached.secretHash) else { return nil }
            var entry = cached
            entry.verifiedSecret = Array(presented.secret.utf8)
            cache.store(presented.keyID, entry)
            return entry
        }
        let row = try pool.withConnection { connection in
            try connection.query("SELECT workspace_id, secret_hash, scope FROM api_keys WHERE id = \(presented.keyID) AND revoked_at IS NULL").first
        }
        guard let row else { return nil }
        let (workspaceID, secretHash, scopeName) = try row.decode((UUID, [UInt8], String).self)
        guard let scope = Scope(rawValue: scopeName), presented.matches(storedHash: secretHash) else { return nil }
        let entry = KeyCache.Entry(workspaceID: workspaceID, secretHash: secretHash, scope: scope, storedAt: .now,
                                   verifiedSecret: Array(presented.secret.utf8))
        if trusted { cache.store(presented.keyID, entry) }
        return entry
    }
}
