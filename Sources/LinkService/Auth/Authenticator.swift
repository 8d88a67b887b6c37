import Foundation
import HTTPServer
import Postgres

/// Turns `Authorization: Bearer <key>`, or without one a session cookie (`authenticateSession`), into a
/// `Principal`, or refuses with 401/403.
///
/// Keys are checked against the `KeyCache` when it may serve them (see its `Trust`), else against the
/// database; either way a revocation takes effect at once on every node that can hear it, and a key
/// verified before a database outage keeps working through it.
public struct Authenticator: Sendable {
    let pool: ConnectionPool
    let cache: KeyCache
    /// People's sessions; nil: cookies authenticate nobody.
    let sessions: SessionCache?

    init(pool: ConnectionPool, cache: KeyCache = KeyCache(), sessions: SessionCache? = nil) {
        self.pool = pool
        self.cache = cache
        self.sessions = sessions
    }

    /// Without an `Authorization` field, a `linkd_session` cookie authenticates instead (`authenticateSession`, which
    /// says what it refuses).
    /// - Throws: `ServiceError.badRequest` for two `Authorization` fields; `.unauthorized` for a missing, malformed, unknown or revoked key;
    ///   `.forbidden` when the key's scope is below `scope`; `PostgresError` (503) when the key is not
    ///   cached and the database cannot be reached.
    public func authenticate(_ request: Request, requiring scope: Scope) throws -> Principal {
        // Two credentials are ambiguous: which one a proxy or this server reads must not decide who is asking.
        guard request.headers.values("Authorization").count <= 1 else {
            throw ServiceError.badRequest("The request has more than one Authorization header field; send one.")
        }
        guard let header = request.headers["Authorization"] else {
            if sessions != nil {
                let tokens = Self.sessionTokens(request)
                if !tokens.isEmpty { return try authenticateSession(request, tokens: tokens, requiring: scope) }
            }
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
        return Principal(workspaceID: key.workspaceID, keyID: presented.keyID, personID: key.createdBy, scope: key.scope, role: key.role)
    }

    /// The key `presented` names when its secret is that key's; nil when the key is unknown, revoked or the
    /// secret wrong. From the cache when it may serve: a secret verified before is compared, not hashed.
    private func verifiedKey(_ presented: APIKeySecret) throws -> KeyCache.CachedKey? {
        if let cached = cache.lookup(presented.keyID) {
            if let verified = cached.verifiedSecret, presented.hasSecret(verified) { return cached }
            guard presented.matches(storedHash: cached.secretHash) else { return nil }
            cache.remember(Array(presented.secret.utf8), for: presented.keyID, secretHash: cached.secretHash)
            return cached
        }
        let epoch = cache.epoch
        guard let stored = try pool.withConnection({ try KeyStore.credentials(of: presented.keyID, on: $0) }) else { return nil }
        guard let scope = Scope(rawValue: stored.scope), let role = Role(rawValue: stored.role),
            presented.matches(storedHash: stored.secretHash)
        else { return nil }
        let entry = KeyCache.CachedKey(
            workspaceID: stored.workspaceID, secretHash: stored.secretHash, scope: scope, role: role,
            createdBy: stored.createdBy, storedAt: .now, verifiedSecret: Array(presented.secret.utf8))
        cache.store(presented.keyID, entry, epoch: epoch)
        return entry
    }
}
