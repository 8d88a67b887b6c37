import Synchronization

/// An entry of a `FeedTrustedCache`: when it was kept (or last re-validated), which its time to live runs from.
protocol FeedTrustedEntry: Sendable {
    var storedAt: ContinuousClock.Instant { get set }
}

/// What was recently read from the database and may be served again without reading it, as far as the change
/// feed that announces its changes can be trusted: the one mechanism of `KeyCache` and `SessionCache`.
///
/// `CacheTrust` follows the feed:
/// - connected, and re-validated since it (re)connected: entries serve for `ttl`, and what is read from the
///   database is kept;
/// - lost: what is kept serves as it is, for as long as the feed is away (what would end it is a write, and the
///   database is away); nothing new is kept;
/// - back: the owner re-validates what is kept (`revalidate(keeping:)`) before the cache is trusted again.
///
/// An entry read from the database is kept only under the epoch it was read in (`epoch`, then `store`): the
/// epoch advances whenever trust changes or entries are dropped, so a read that raced a re-validation or an
/// invalidation is not kept.
final class FeedTrustedCache<Key: Hashable & Sendable, Entry: FeedTrustedEntry>: Sendable {
    private struct State: Sendable {
        var entries: [Key: Entry] = [:]
        var trust = CacheTrust.none
        var epoch: UInt64 = 0
    }

    private let state = Mutex(State())
    private let ttl: Duration
    private let maximumCount: Int

    init(ttl: Duration, maximumCount: Int) {
        self.ttl = ttl
        self.maximumCount = maximumCount
    }

    /// The kept entry for `key`, when the cache may serve it now and `isLive` says it is (an entry it refuses is
    /// dropped).
    func lookup(_ key: Key, isLive: (Entry) -> Bool = { _ in true }) -> Entry? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            guard isLive(entry) else {
                state.entries[key] = nil
                return nil
            }
            switch state.trust {
            case .none: return nil
            case .holding: return entry
            case .current:
                guard now - entry.storedAt < ttl else {
                    state.entries[key] = nil
                    return nil
                }
                return entry
            }
        }
    }

    /// Read before looking an entry up in the database; hand it to `store(_:_:epoch:)`.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Keeps `entry`, read from the database under `epoch`, if the cache is current and was not re-validated,
    /// invalidated or left since that read. A full cache is emptied first (bounded memory, no bookkeeping).
    func store(_ key: Key, _ entry: Entry, epoch: UInt64) {
        state.withLock { state in
            guard state.trust == .current, state.epoch == epoch else { return }
            if state.entries.count >= maximumCount { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = entry
        }
    }

    /// Changes the kept entry for `key`, if there is one.
    func update(_ key: Key, _ change: (inout Entry) -> Void) {
        state.withLock { state in
            guard var entry = state.entries[key] else { return }
            change(&entry)
            state.entries[key] = entry
        }
    }

    /// Drops the entry for `key`.
    func invalidate(_ key: Key) {
        _ = state.withLock { $0.entries.removeValue(forKey: key) }
    }

    /// Drops every entry `matches` selects; what was being read meanwhile is not kept.
    func invalidate(where matches: (Entry) -> Bool) {
        state.withLock { state in
            state.epoch &+= 1
            state.entries = state.entries.filter { !matches($0.value) }
        }
    }

    var trust: CacheTrust { state.withLock { $0.trust } }

    /// The keys kept now, for a re-validation (what is read under this call's epoch is not kept).
    func keysForRevalidation() -> [Key] {
        state.withLock { state in
            state.epoch &+= 1
            return Array(state.entries.keys)
        }
    }

    /// The change feed is lost: keep serving what is kept, keep nothing new.
    func hold() {
        state.withLock { state in
            guard state.trust == .current else { return }
            state.trust = .holding
            state.epoch &+= 1
        }
    }

    /// The change feed is (again) connected and `LISTEN`ing: keeps the entries `keeping` selects (nil: none, the
    /// cache emptied), their time to live restarted, and trusts the cache again; how many were dropped.
    @discardableResult
    func revalidate(keeping: Set<Key>?) -> Int {
        let now = ContinuousClock.now
        return state.withLock { state -> Int in
            let before = state.entries.count
            if let keeping {
                state.entries = state.entries.filter { keeping.contains($0.key) }
                for key in state.entries.keys { state.entries[key]?.storedAt = now }
            } else {
                state.entries.removeAll()
            }
            state.trust = .current
            state.epoch &+= 1
            return before - state.entries.count
        }
    }
}
