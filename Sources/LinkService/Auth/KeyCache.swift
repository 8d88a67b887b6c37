import Foundation
import Observability
import Postgres
import Synchronization

/// API keys recently seen valid, so authenticating a request usually costs no database round trip, and
/// no hash: an entry keeps the secret last verified against the stored hash, and a request presenting the
/// same secret again is compared with it in constant time (the secret is in this process's memory with
/// every request that presents it anyway; it is never written anywhere).
///
/// Coherence: a revocation `NOTIFY`s `linkd_keys` in its transaction and every node drops the key when
/// it hears it; the revoking node also drops it at once (`CatalogChanges`). What the cache may do follows
/// the change feed that carries those notifications (`Trust`):
/// - connected, and re-validated since it (re)connected: entries serve for `ttl`, and keys verified in the
///   database are kept;
/// - lost: the keys kept serve as they are, for as long as the feed is away, since no key can be revoked
///   while the database is down (revocation is a write); nothing new is kept, a key not kept is looked up
///   in the database (503 while it is unreachable);
/// - back: before trusting the cache again, every kept key id is read again from `api_keys` on the feed's
///   own connection (after its `LISTEN`, so a revocation is either in that read or in a later notification),
///   and the revoked or deleted ones are dropped.
final class KeyCache: Sendable {
    struct CachedKey: Sendable {
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

    /// How far the cache can be trusted, following the change feed.
    enum Trust: Sendable, Equatable {
        /// No change feed yet: every key is read from the database, none is kept.
        case none
        /// The feed is connected and the cache was re-validated since: entries serve for `ttl`.
        case current
        /// The feed is lost: entries serve without expiring; nothing new is kept.
        case holding
    }

    private struct State: Sendable {
        var entries: [UUID: CachedKey] = [:]
        var trust = Trust.none
        /// Advances whenever `trust` changes: a key verified in the database under an older epoch is not
        /// kept, since a re-validation may have run without it.
        var epoch: UInt64 = 0
    }

    static let channel = "linkd_keys"

    private let state = Mutex(State())
    private let ttl: Duration
    private let maximumCount: Int

    init(ttl: Duration = .seconds(60), maximumCount: Int = 10_000) {
        self.ttl = ttl
        self.maximumCount = maximumCount
    }

    /// The kept entry for `id`, when the cache may serve it now.
    func lookup(_ id: UUID) -> CachedKey? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.entries[id] else { return nil }
            switch state.trust {
            case .none: return nil
            case .holding: return entry
            case .current:
                guard now - entry.storedAt < ttl else {
                    state.entries[id] = nil
                    return nil
                }
                return entry
            }
        }
    }

    /// Read before looking a key up in the database; hand it to `store(_:_:epoch:)`.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Keeps `entry`, read from the database under `epoch`, if the cache is current and was not re-validated
    /// or left since that read.
    func store(_ id: UUID, _ entry: CachedKey, epoch: UInt64) {
        state.withLock { state in
            guard state.trust == .current, state.epoch == epoch else { return }
            if state.entries.count >= maximumCount { state.entries.removeAll(keepingCapacity: true) }
            state.entries[id] = entry
        }
    }

    /// Remembers `secret` as the last one verified for the kept key `id` (if it is still kept, with that hash).
    func remember(_ secret: [UInt8], for id: UUID, secretHash: [UInt8]) {
        state.withLock { state in
            guard state.entries[id]?.secretHash == secretHash else { return }
            state.entries[id]?.verifiedSecret = secret
        }
    }

    func invalidate(_ id: UUID) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    var trust: Trust { state.withLock { $0.trust } }

    /// The change feed is lost: keep serving what is kept, keep nothing new.
    func hold() {
        state.withLock { state in
            guard state.trust == .current else { return }
            state.trust = .holding
            state.epoch &+= 1
        }
    }

    /// The change feed is (again) connected on `connection`, already `LISTEN`ing: drops every kept key
    /// that was revoked or deleted meanwhile, then trusts the cache again. When the keys cannot be read the
    /// cache is emptied instead: with the feed connected, an empty cache is current.
    func revalidate(on connection: Connection, logger: Logger) {
        let ids = state.withLock { state -> [String] in
            state.epoch &+= 1
            return state.entries.keys.map(\.canonicalText)
        }
        var valid: Set<UUID>?
        if ids.isEmpty {
            valid = []
        } else {
            do {
                valid = try KeyStore.unrevoked(ids, on: connection)
            } catch {
                logger.warning("cached keys cannot be re-validated; dropping them", metadata: ["error": "\(error)"])
            }
        }
        let now = ContinuousClock.now
        let dropped = state.withLock { state -> Int in
            let before = state.entries.count
            if let valid {
                state.entries = state.entries.filter { valid.contains($0.key) }
                for id in state.entries.keys { state.entries[id]?.storedAt = now }
            } else {
                state.entries.removeAll()
            }
            state.trust = .current
            state.epoch &+= 1
            return before - state.entries.count
        }
        if !ids.isEmpty {
            logger.info("cached keys re-validated", metadata: ["keys.kept": "\(ids.count - dropped)", "keys.dropped": "\(dropped)"])
        }
    }
}
