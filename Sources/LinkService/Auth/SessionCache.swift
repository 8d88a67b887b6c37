import Foundation
import Observability
import Postgres
import Synchronization

/// People's sessions recently seen live, by their cookie's token, so a cookie-authenticated request usually
/// costs no database round trip: the same shape and coherence as `KeyCache` (read its comment first).
///
/// - An entry keeps who the session is (person, workspace, role there) and its ends. It serves while the
///   session is before its absolute end and within its idle lifetime, and, while the change feed is current,
///   for `ttl` at most: then the session is read again (and marked seen, which moves its idle end on).
/// - Coherence: whatever changes who a session is, or ends it (sign-out, sign out everywhere, a switch of
///   workspace, a member's role changed or removed), `NOTIFY`s `linkd_sessions` with the person's id in its
///   transaction (`ChangeSet.sessionsChanged`); every node drops that person's entries when it hears it, and
///   the writing node before it answers (`CatalogChanges`).
/// - Trust follows the change feed as `KeyCache`'s does: lost, the kept sessions serve as they are (ending a
///   session is a write) and nothing new is kept; back, the cache is emptied before it is trusted again, since
///   notifications sent meanwhile were lost.
final class SessionCache: Sendable {
    struct CachedSession: Sendable {
        let sessionID: UUID
        let personID: UUID
        /// nil when the person belongs to no workspace.
        let workspaceID: UUID?
        /// The person's role in `workspaceID`; nil when they are not (or no longer) a member.
        let role: Role?
        /// The absolute end (wall clock, as stored).
        let expiresAt: Date
        /// When the database last marked it seen (the idle lifetime runs from here).
        let seenAt: ContinuousClock.Instant
        var storedAt: ContinuousClock.Instant
    }

    private struct State: Sendable {
        var entries: [String: CachedSession] = [:]
        var trust = KeyCache.Trust.none
        /// Advances whenever `trust` changes or a person's sessions are dropped: a session read from the
        /// database under an older epoch is not kept.
        var epoch: UInt64 = 0
    }

    static let channel = "linkd_sessions"

    private let state = Mutex(State())
    private let ttl: Duration
    private let idle: Duration
    /// The idle lifetime in seconds, as the store's queries take it.
    let idleSeconds: TimeInterval
    private let maximumCount: Int

    init(idle: Int, ttl: Duration = .seconds(60), maximumCount: Int = 10_000) {
        self.idle = .seconds(idle)
        idleSeconds = TimeInterval(idle)
        self.ttl = ttl
        self.maximumCount = maximumCount
    }

    /// The kept session of `token`, when the cache may serve it now.
    func lookup(_ token: String) -> CachedSession? {
        let now = ContinuousClock.now
        let wall = Date()
        return state.withLock { state in
            guard let entry = state.entries[token] else { return nil }
            guard wall < entry.expiresAt, now - entry.seenAt < idle else {
                state.entries[token] = nil
                return nil
            }
            switch state.trust {
            case .none: return nil
            case .holding: return entry
            case .current:
                guard now - entry.storedAt < ttl else {
                    state.entries[token] = nil
                    return nil
                }
                return entry
            }
        }
    }

    /// Read before looking a session up in the database; hand it to `store(_:_:epoch:)`.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    /// Keeps `entry`, read from the database under `epoch`, if the cache is current and nothing was dropped,
    /// re-validated or left since that read.
    func store(_ token: String, _ entry: CachedSession, epoch: UInt64) {
        state.withLock { state in
            guard state.trust == .current, state.epoch == epoch else { return }
            if state.entries.count >= maximumCount { state.entries.removeAll(keepingCapacity: true) }
            state.entries[token] = entry
        }
    }

    /// Drops every kept session of `person`.
    func invalidate(person: UUID) {
        state.withLock { state in
            state.epoch &+= 1
            state.entries = state.entries.filter { $0.value.personID != person }
        }
    }

    var trust: KeyCache.Trust { state.withLock { $0.trust } }

    /// The change feed is lost: keep serving what is kept, keep nothing new.
    func hold() {
        state.withLock { state in
            guard state.trust == .current else { return }
            state.trust = .holding
            state.epoch &+= 1
        }
    }

    /// The change feed is (again) connected and `LISTEN`ing: what is kept may have been ended meanwhile, so it
    /// is dropped, and the cache is trusted again.
    func revalidate() {
        state.withLock { state in
            state.entries.removeAll()
            state.trust = .current
            state.epoch &+= 1
        }
    }
}
