/// How far a `FeedTrustedCache` can be trusted, following the change feed.
enum CacheTrust: Sendable, Equatable {
    /// No change feed yet: everything is read from the database, nothing is kept.
    case none
    /// The feed is connected and the cache was re-validated since: entries serve for their time to live.
    case current
    /// The feed is lost: entries serve without expiring; nothing new is kept.
    case holding
}
