import Foundation

/// People's sessions recently seen live, by their cookie's token, so a cookie-authenticated request usually
/// costs no database round trip: the same mechanism as `KeyCache` (`FeedTrustedCache`; read its comment first).
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
    struct CachedSession: FeedTrustedEntry {
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

    static let channel = "linkd_sessions"

    private let cache: FeedTrustedCache<String, CachedSession>
    private let idle: Duration
    /// The idle lifetime in seconds, as the store's queries take it.
    let idleSeconds: TimeInterval

    init(idle: Int, ttl: Duration = .seconds(60), maximumCount: Int = 10_000) {
        self.idle = .seconds(idle)
        idleSeconds = TimeInterval(idle)
        cache = FeedTrustedCache(ttl: ttl, maximumCount: maximumCount)
    }

    /// The kept session of `token`, when the cache may serve it now: before its absolute end and within its idle
    /// lifetime.
    func lookup(_ token: String) -> CachedSession? {
        let now = ContinuousClock.now
        let wall = Date()
        return cache.lookup(token) { wall < $0.expiresAt && now - $0.seenAt < idle }
    }

    /// Read before looking a session up in the database; hand it to `store(_:_:epoch:)`.
    var epoch: UInt64 { cache.epoch }

    /// Keeps `entry`, read from the database under `epoch`, if the cache is current and nothing was dropped,
    /// re-validated or left since that read.
    func store(_ token: String, _ entry: CachedSession, epoch: UInt64) { cache.store(token, entry, epoch: epoch) }

    /// Drops every kept session of `person`.
    func invalidate(person: UUID) { cache.invalidate { $0.personID == person } }

    var trust: CacheTrust { cache.trust }

    /// The change feed is lost: keep serving what is kept, keep nothing new.
    func hold() { cache.hold() }

    /// The change feed is (again) connected and `LISTEN`ing: what is kept may have been ended meanwhile, so it
    /// is dropped, and the cache is trusted again.
    func revalidate() { cache.revalidate(keeping: nil) }
}
