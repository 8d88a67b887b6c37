import Foundation
import UserAgents

/// How the hit pipeline batches, buffers, spools and retains hits.
public struct HitsConfiguration: Sendable {
    /// Where hits go when the database is unavailable and memory is full (`LINKD_SPOOL_DIR`, by default
    /// `<data-dir>/spool` for `linkd serve`). nil: a fresh directory under the system temporary directory,
    /// which is not replayed by a later process (tests, embedded uses).
    public var spoolDirectory: URL?
    /// Raw hits older than this many days are dropped, a whole daily partition at a time
    /// (`LINKD_HITS_RETENTION_DAYS`, default 90). Rollups are kept.
    public var retentionDays: Int
    /// The most hits one `COPY` carries.
    public var maxBatchSize: Int
    /// The longest a hit waits in memory before the writer flushes (when the database is up).
    public var flushInterval: Duration
    /// Hits kept in memory while the database is unavailable; beyond it they are appended to the spool.
    public var memoryLimit: Int
    /// Hits in memory beyond which `record` counts a hit as dropped instead of queueing it. Only reachable
    /// when the writer cannot keep up with spooling (a full disk); visible as `linkd_hits_dropped_total`.
    public var hardLimit: Int
    /// Daily partitions created ahead of today.
    public var partitionsAhead: Int
    /// Hits per spool segment file.
    public var spoolSegmentSize: Int
    /// Distinct campaigns (`utm_*` values) the hourly rollups keep per workspace and hour; later ones are counted
    /// as `(other)` (`HitCampaignLimit`). Raw hits keep every value.
    public var campaignsPerHour: Int
    /// The MaxMind DB file hits' countries are read from (`--geoip-db`: GeoLite2 Country or DB-IP Lite Country,
    /// docs/HITS.md "Dimensions"); nil: no countries.
    public var geoIPDatabase: String?
    /// uap-core's `regexes.yaml`, which hits' operating systems and browsers are read with (Debian's `uap-core`
    /// package installs it there); when it cannot be loaded, hits record neither (logged at start).
    public var userAgentRegexes: String
    /// How often the pending rollups and top values are moved into their tables (`HitFold`, on a thread of its own
    /// beside the writer): about this much of the hits' rollups is read from `hit_rollups_pending` and
    /// `hit_top_pending`, at the cost of one fold per interval.
    public var foldInterval: Duration = .seconds(5)

    public init(
        spoolDirectory: URL? = nil, retentionDays: Int = 90, maxBatchSize: Int = 100_000,
        flushInterval: Duration = .milliseconds(200), memoryLimit: Int = 250_000, hardLimit: Int = 2_000_000,
        partitionsAhead: Int = 7, spoolSegmentSize: Int = 100_000, campaignsPerHour: Int = 1_000, geoIPDatabase: String? = nil,
        userAgentRegexes: String = UserAgentParser.debianRegexes
    ) {
        self.spoolDirectory = spoolDirectory
        self.retentionDays = max(1, retentionDays)
        self.maxBatchSize = max(1, maxBatchSize)
        self.flushInterval = flushInterval
        self.memoryLimit = max(1, memoryLimit)
        self.hardLimit = max(self.memoryLimit, hardLimit)
        self.partitionsAhead = max(1, partitionsAhead)
        self.spoolSegmentSize = max(1, spoolSegmentSize)
        self.campaignsPerHour = max(1, campaignsPerHour)
        self.geoIPDatabase = geoIPDatabase
        self.userAgentRegexes = userAgentRegexes
    }
}
