import Foundation
import Synchronization

/// API keys recently seen valid, so authenticating a request usually costs no database round trip, and
/// no hash: an entry keeps the secret last verified against the stored hash, and a request presenting the
/// same secret again is compared with it in constant time (the secret is in this process's memory with
/// every request that presents it anyway; it is never written anywhere).
///
/// Coherence: a revocation `NOTIFY`s `linkd_keys` in its transaction and every node drops the key when
/// it hears it; the revoking node also drops it at once. The cache is only trusted while the change
/// feed is connected (otherwise a revocation could go unheard), and entries expire after `ttl` anyway.
final class KeyCache: Sendable {
    struct Entry: Sendable {
        let workspaceID: UUID
        let secretHash: [UInt8]
        let scope: Scope
        let storedAt: ContinuousClock.Instant
        /// The secret of the last presentation that matched `secretHash`.
        var verifiedSecret: [UInt8]? = nil
    }

    static let channel = "linkd_keys"

    private let entries = Mutex<[UUID: Entry]>([:])
    private let ttl: Duration
    private let maximumCount: Int

    init(ttl: Duration = .seconds(60), maximumCount: Int = 10_000) {
        self.ttl = ttl
        self.maximumCount = maximumCount
    }

    func lookup(_ id: UUID) -> Entry? {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let entry = entries[id] else { return nil }
            guard now - entry.storedAt < ttl else {
                entries[id] = nil
                return nil
            }
            return entry
        }
    }

    func store(_ id: UUID, _ entry: Entry) {
        entries.withLock { entries in
            if entries.count >= maximumCount { entries.removeAll(keepingCapacity: true) }
            entries[id] = entry
        }
    }

    func invalidate(_ id: UUID) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }

    func removeAll() {
        entries.withLock { $0.removeAll() }
    }
}
