import Dispatch
import Foundation
import GeoIP
import Observability
import Postgres
import Synchronization

/// The hit pipeline: request threads `record` hits into a bounded in-memory queue and never wait on the
/// database; one writer thread (`HitWriter` on a `ServiceThread`) drains it in batches with `COPY`, appending their
/// rollups and top values to `hit_rollups_pending` and `hit_top_pending` in the same transaction; a second thread
/// moves those into the cubes and top-value tables every `foldInterval` (`HitFold`), so the writer never waits for a
/// fold.
///
/// - Flushes at least every `flushInterval` (200 ms), or as soon as `maxBatchSize` hits are queued.
/// - While the database is unavailable, hits stay in memory up to `memoryLimit`; beyond it the writer
///   appends them to the spool (`HitSpool`), replayed in order when the database returns.
/// - `shutdown()` writes everything out (to the database, or to the spool if it stays unreachable for
///   `drainTimeout`) before returning.
/// - `/metrics`: `linkd_hits_accepted_total`, `_written_total`, `_queued`, `_spooled`, `_spooled_total`,
///   `_dropped_total`, `_not_durable` (what a crash would lose) and `_flush_interval_seconds`.
public final class HitBatcher: HitSink, BackgroundService {
    let name = "hit writer"
    /// The writer and the fold.
    static let threads = 2
    /// Hashes visitors for hits with the shared daily salt (kept current by the writer).
    public let visitors: VisitorHasher
    /// The operator's MaxMind DB file (`HitsConfiguration.geoIPDatabase`), opened once; nil without one.
    public let countries: CountryDatabase?
    let configuration: HitsConfiguration
    let store: HitStore
    let spool: HitSpool
    let logger: Logger
    let state = Mutex(HitQueueState())
    /// The writer's thread: woken early by a full batch or the memory limit, and by the stop.
    let thread = ServiceThread(name: "linkd.hits.writer")
    /// The fold's thread, and whether its last fold failed (logged once per run of failures).
    private let folder = ServiceThread(name: "linkd.hits.fold")
    private let foldFailing = Atomic<Bool>(false)
    /// How long `shutdown()` keeps retrying an unavailable database before spooling what is left.
    let drainTimeout: Duration

    /// Prepares the pipeline; the writer starts with `start()`.
    /// - Throws: `HitPipelineError` when the spool directory cannot be created or is in use; `GeoIPError` when the
    ///   configured MaxMind DB file cannot be read or is not one.
    /// - Parameter stripes: the owner's stripes, by which the visitor hashes are kept per thread.
    public init(
        pool: ConnectionPool, configuration: HitsConfiguration, logger: Logger, drainTimeout: Duration = .seconds(10),
        stripes: StripeAssignment = StripeAssignment(threads: 1)
    ) throws {
        self.configuration = configuration
        self.logger = logger
        self.visitors = VisitorHasher(stripes: stripes)
        self.countries = try configuration.geoIPDatabase.map { path throws(GeoIPError) in try CountryDatabase(path: path) }
        self.drainTimeout = drainTimeout
        self.store = HitStore(pool: pool, configuration: configuration, logger: logger)
        let directory =
            configuration.spoolDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("linkd-spool-\(getpid())-\(UUID().uuidString.prefix(8))")
        self.spool = try HitSpool(directory: directory, segmentSize: configuration.spoolSegmentSize, logger: logger)
        let leftOver = spool.count
        state.withLock { $0.spooled = leftOver }
        if leftOver > 0 { logger.notice("hits left in the spool by an earlier run", metadata: ["hits.spooled": "\(leftOver)"]) }
    }

    /// Accepts one hit. Never blocks on I/O: one append under a lock. The hit is moved into the queue, not copied
    /// (a copy retains each of its strings again).
    public func record(_ hit: consuming Hit) {
        let limits = (batch: configuration.maxBatchSize, memory: configuration.memoryLimit, hard: configuration.hardLimit)
        var hit = Optional(hit)
        let wake = state.withLock { state -> Bool in
            state.accepted += 1
            guard !state.isClosed, state.queue.count < limits.hard else {
                state.dropped += 1
                return false
            }
            state.queue.append(hit.take()!)
            return state.queue.count == limits.batch || state.queue.count == limits.memory
        }
        if wake { thread.wake() }
    }

    /// The shared-salt hasher (`visitors`).
    public var visitorHasher: VisitorHasher? { visitors }

    /// The pipeline's counters now.
    public var counters: HitCounters { state.withLock { $0.counters } }

    /// The spool directory in use.
    public var spoolDirectory: URL { spool.directory }

    /// Runs `writer` until it has drained after a stop (on the writer thread, or on the caller of a `shutdown()`
    /// before `start()`: the spool belongs to one thread at a time).
    private func run(_ writer: HitWriter) {
        var writer = writer
        writer.run()
        if configuration.spoolDirectory == nil { spool.removeDirectoryIfEmpty() }
        logger.info("hit writer stopped", metadata: ["hits.written": "\(counters.written)", "hits.spooled": "\(counters.spooled)"])
    }

    /// Does the first maintenance (partitions, today's shared visitor salt) on the calling thread, then
    /// starts the writer on its thread. The server starts after this returns, so no request hashes its
    /// visitor with a node-local salt that the shared one would replace (counting the visitor twice).
    public func start() {
        guard !thread.isRunning, !thread.isStopping else { return }
        var writer = HitWriter(batcher: self)
        writer.maintainIfDue()
        let prepared = writer
        thread.start { [self] in run(prepared) }
        folder.start(every: .milliseconds(Int(configuration.foldInterval.inSeconds * 1000))) { [self] isLast in
            if !isLast { fold() }
        }
    }

    /// Moves the pending rollups and top values into their tables (`HitFold`). Nothing is lost when it fails: the
    /// rows stay pending (and counted by reads) until a later fold.
    private func fold() {
        do {
            try store.fold()
            if foldFailing.exchange(false, ordering: .relaxed) { logger.notice("folding the pending rows works again") }
        } catch {
            if !foldFailing.exchange(true, ordering: .relaxed) {
                logger.warning("folding the pending rows failed; will retry", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Asks the writer to write everything out and waits until it has (idempotent; safe from any thread).
    /// If the writer never ran, drains on the calling thread.
    public func shutdown() {
        folder.stop()
        thread.stop { run(HitWriter(batcher: self)) }
    }

    /// Why the spool cannot be written, when the last append or check failed (`/readyz`, docs/FAULTS.md).
    var spoolFailure: String? { state.withLock { $0.spoolFailure } }

    /// Whether the writer runs (it buffers and spools while the database is away: that is its work too).
    var isHealthy: Bool { thread.isRunning }

    /// Registers the pipeline's counters and gauges.
    public func register(in metrics: MetricsRegistry) {
        let series: [(String, String, @Sendable (HitCounters) -> Int)] = [
            ("linkd_hits_accepted_total", "Hits accepted by the pipeline.", { $0.accepted }),
            ("linkd_hits_written_total", "Hits committed to the database.", { $0.written }),
            ("linkd_hits_queued", "Hits in memory waiting for the writer.", { $0.queued }),
            ("linkd_hits_spooled", "Hits in the spool waiting for the database.", { $0.spooled }),
            ("linkd_hits_spooled_total", "Hits ever appended to the spool.", { $0.spooledTotal }),
            (
                "linkd_hits_dropped_total", "Hits lost (over the hard memory limit, after shutdown, or rejected by the database).",
                { $0.dropped }
            ),
            (
                "linkd_hits_not_durable",
                "Hits accepted and held in memory only (neither committed nor spooled): what a crash or SIGKILL would lose.", { $0.queued }
            ),
        ]
        for (name, help, read) in series {
            metrics.gauge(name, help: help) { [self] in [([:], Double(read(counters)))] }
        }
        metrics.gauge(
            "linkd_hits_spool_writable",
            help: "0 when the spool's last append or check failed: a stop while the database is away then loses the hits held in memory."
        ) {
            [self] in [([:], spoolFailure == nil ? 1 : 0)]
        }
        let interval = configuration.flushInterval.inSeconds
        metrics.gauge(
            "linkd_hits_flush_interval_seconds",
            help: "The longest a hit waits in memory before the writer commits it, while the database is up."
        ) {
            [([:], interval)]
        }
    }
}
