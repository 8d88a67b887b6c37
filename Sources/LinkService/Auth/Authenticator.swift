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
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
              let presented = APIKeySecret(parsing: Self.trimmed(parts[1]))
        else { throw ServiceError.unauthorized("The Authorization header must be 'Bearer <key>' with a linkd API key.") }
        let key = try key(presented.keyID)
        guard let key, presented.matches(storedHash: key.secretHash) else {
            throw ServiceError.unauthorized("The API key is unknown or revoked.")
        }
        guard key.scope >= scope else {
            throw ServiceError.forbidden("This call needs a key with the '\(scope.rawValue)' scope; this key has '\(key.scope.rawValue)'.")
        }
        return Principal(workspaceID: key.workspaceID, keyID: presented.keyID, scope: key.scope)
    }

    /// `text` without surrounding whitespace. Most headers have none: then no Foundation call is made.
    private static func trimmed(_ text: Substring) -> String {
        let isPlain: (UInt8) -> Bool = { $0 > 0x20 && $0 < 0x7F }
        if let first = text.utf8.first, let last = text.utf8.last, isPlain(first), isPlain(last) { return String(text) }
        return text.trimmingCharacters(in: .whitespaces)
    }

    private func key(_ id: UUID) throws -> KeyCache.Entry? {
        let trusted = cacheIsCurrent()
        if trusted, let cached = cache.lookup(id) { return cached }
        let row = try pool.withConnection { connection in
            try connection.query("SELECT workspace_id, secret_hash, scope FROM api_keys WHERE id = \(id) AND revoked_at IS NULL").first
        }
        guard let row else { return nil }
        let (workspaceID, secretHash, scopeName) = try row.decode((UUID, [UInt8], String).self)
        guard let scope = Scope(rawValue: scopeName) else { return nil }
        if trusted { cache.store(id, workspaceID: workspaceID, secretHash: secretHash, scope: scope) }
        return KeyCache.Entry(workspaceID: workspaceID, secretHash: secretHash, scope: scope, storedAt: .now)
    }
}
