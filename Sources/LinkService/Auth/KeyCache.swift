import Foundation
import Observability
import Postgres

/// API keys recently seen valid, so authenticating a request usually costs no database round trip, and
/// no hash: an entry keeps the secret last verified against the stored hash, and a request presenting the
/// same secret again is compared with it in constant time (the secret is in this process's memory with
/// every request that presents it anyway; it is never written anywhere).
///
/// Coherence: a revocation `NOTIFY`s `linkd_keys` in its transaction and every node drops the key when
/// it hears it; the revoking node also drops it at once (`CatalogChanges`). What the cache may do follows
/// the change feed that carries those notifications (`CacheTrust`, the mechanism `FeedTrustedCache` keeps):
/// - connected, and re-validated since it (re)connected: entries serve for `ttl`, and keys verified in the
///   database are kept;
/// - lost: the keys kept serve as they are, for as long as the feed is away, since no key can be revoked
///   while the database is down (revocation is a write); nothing new is kept, a key not kept is looked up
///   in the database (503 while it is unreachable);
/// - back: before trusting the cache again, every kept key id is read again from `api_keys` on the feed's
///   own connection (after its `LISTEN`, so a revocation is either in that read or in a later notification),
///   and the revoked or deleted ones are dropped.
final class KeyCache: Sendable {
    struct CachedKey: FeedTrustedEntry {
        let workspaceID: UUID
        let secretHash: [UInt8]
        let scope: Scope
        /// The role the key acts as (`api_keys.role`).
        let role: Role
        /// The person who created it, if any.
        let createdBy: UUID?
        var storedAt: ContinuousClock.Instant
        /// The secret of the last presentation that matched `secretHash`.
        var verifiedSecret: [UInt8]? = nil
    }

    static let channel = "linkd_keys"

    private let cache: FeedTrustedCache<UUID, CachedKey>

    init(ttl: Duration = .seconds(60), maximumCount: Int = 10_000) {
        cache = FeedTrustedCache(ttl: ttl, maximumCount: maximumCount)
    }

    /// The kept entry for `id`, when the cache may serve it now.
    func lookup(_ id: UUID) -> CachedKey? { cache.lookup(id) }

    /// Read before looking a key up in the database; hand it to `store(_:_:epoch:)`.
    var epoch: UInt64 { cache.epoch }

    /// Keeps `entry`, read from the database under `epoch`, if the cache is current and was not re-validated
    /// or left since that read.
    func store(_ id: UUID, _ entry: CachedKey, epoch: UInt64) { cache.store(id, entry, epoch: epoch) }

    /// Remembers `secret` as the last one verified for the kept key `id` (if it is still kept, with that hash).
    func remember(_ secret: [UInt8], for id: UUID, secretHash: [UInt8]) {
        cache.update(id) { entry in
            if entry.secretHash == secretHash { entry.verifiedSecret = secret }
        }
    }

    func invalidate(_ id: UUID) { cache.invalidate(id) }

    var trust: CacheTrust { cache.trust }

    /// The change feed is lost: keep serving what is kept, keep nothing new.
    func hold() { cache.hold() }

    /// The change feed is (again) connected on `connection`, already `LISTEN`ing: drops every kept key
    /// that was revoked or deleted meanwhile, then trusts the cache again. When the keys cannot be read the
    /// cache is emptied instead: with the feed connected, an empty cache is current.
    func revalidate(on connection: Connection, logger: Logger) {
        let ids = cache.keysForRevalidation()
        var valid: Set<UUID>?
        if ids.isEmpty {
            valid = []
        } else {
            do {
                valid = try KeyStore.unrevoked(ids.map(\.canonicalText), on: connection)
            } catch {
                logger.warning("cached keys cannot be re-validated; dropping them", metadata: ["error": "\(error)"])
            }
        }
        let dropped = cache.revalidate(keeping: valid)
        if !ids.isEmpty {
            logger.info("cached keys re-validated", metadata: ["keys.kept": "\(ids.count - dropped)", "keys.dropped": "\(dropped)"])
        }
    }
}
