import Dispatch
import Foundation
import GeoIP
import Observability
import Postgres
import Synchronization

/// The hit pipeline: request threads `record` hits into a bounded in-memory queue and never wait on the
/// database; one writer thread (`RecordWriter` with a `HitWriteTarget`, on a `ServiceThread`) drains it in batches with `COPY`, appending their
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
    let logger: Logger
    /// The queue, the writer's thread and the spool.
    let queue: RecordQueue<Hit>
    /// The fold's thread, and whether its last fold failed (logged once per run of failures).
    private let folder = ServiceThread(name: "linkd.hits.fold")
    private let foldFailing = Atomic<Bool>(false)

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
        self.store = HitStore(pool: pool, configuration: configuration, logger: logger)
        self.queue = try RecordQueue(
            noun: .init(singular: "hit", plural: "hits", one: "a hit"),
            limits: .init(configuration, drainTimeout: drainTimeout), spoolDirectory: configuration.spoolDirectory,
            spoolSegmentSize: configuration.spoolSegmentSize, logger: logger)
    }

    /// Accepts one hit. Never blocks on I/O: one append under a lock. The hit is moved into the queue, not copied
    /// (a copy retains each of its strings again).
    public func record(_ hit: consuming Hit) {
        queue.record(hit)
    }

    /// The shared-salt hasher (`visitors`).
    public var visitorHasher: VisitorHasher? { visitors }

    /// The pipeline's counters now.
    public var counters: HitCounters { queue.counters }

    /// The spool directory in use.
    public var spoolDirectory: URL { queue.spool.directory }

    /// Does the first maintenance (partitions, today's shared visitor salt) on the calling thread, then
    /// starts the writer on its thread. The server starts after this returns, so no request hashes its
    /// visitor with a node-local salt that the shared one would replace (counting the visitor twice).
    public func start() {
        guard !queue.thread.isRunning, !queue.thread.isStopping else { return }
        queue.start(HitWriteTarget(batcher: self))
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
        queue.shutdown { HitWriteTarget(batcher: self) }
    }

    /// Why the spool cannot be written, when the last append or check failed (`/readyz`, docs/FAULTS.md).
    var spoolFailure: String? { queue.spoolFailure }

    /// Whether the writer runs (it buffers and spools while the database is away: that is its work too).
    var isHealthy: Bool { queue.thread.isRunning }

    /// Registers the pipeline's counters and gauges.
    public func register(in metrics: MetricsRegistry) {
        queue.register(in: metrics)
    }
}
