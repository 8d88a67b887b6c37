import Foundation
import Observability
import Synchronization

/// A pipeline's queue, writer thread and spool (hits, events; docs/HITS.md, "Pipeline"): request threads `record`
/// into a bounded in-memory queue and never wait on the database; one writer thread (`RecordWriter`, driven by
/// `HitWriterStateMachine`) drains it in batches through its `RecordTarget`, spooling to disk while the database is
/// away, and writes everything out (or to the spool) at `shutdown()`.
final class RecordQueue<Record: SpoolRecord & Sendable>: Sendable {
    /// How logs and metrics name the records.
    struct Noun: Sendable {
        /// `hit`, `event`.
        let singular: String
        /// `hits`, `events`.
        let plural: String
        /// `a hit`, `an event`.
        let one: String
    }

    let noun: Noun
    let limits: HitWriterStateMachine.Limits
    let logger: Logger
    let state = Mutex(RecordQueueState<Record>())
    /// The writer's thread: woken early by a full batch or the memory limit, and by the stop.
    let thread: ServiceThread
    let spool: RecordSpool<Record>
    /// Whether the spool directory is the operator's (kept) or a temporary one (removed when empty at the end).
    private let spoolIsConfigured: Bool

    /// Opens the spool (`spoolDirectory`, or a fresh temporary directory when nil) and counts what it holds.
    /// - Throws: `HitPipelineError` when the spool directory cannot be created or is in use.
    init(
        noun: Noun, limits: HitWriterStateMachine.Limits, spoolDirectory: URL?, spoolSegmentSize: Int, logger: Logger
    ) throws {
        self.noun = noun
        self.limits = limits
        self.logger = logger
        thread = ServiceThread(name: "linkd.\(noun.plural).writer")
        spoolIsConfigured = spoolDirectory != nil
        let directory =
            spoolDirectory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "linkd-\(noun.singular)-spool-\(getpid())-\(UUID().uuidString.prefix(8))")
        spool = try RecordSpool(directory: directory, segmentSize: spoolSegmentSize, logger: logger)
        let leftOver = spool.count
        state.withLock { $0.spooled = leftOver }
        if leftOver > 0 {
            logger.notice("\(noun.plural) left in the spool by an earlier run", metadata: ["\(noun.plural).spooled": "\(leftOver)"])
        }
    }

    /// Accepts one record. Never blocks on I/O: one append under a lock. The record is moved into the queue, not
    /// copied (a copy retains each of its strings again).
    func record(_ record: consuming Record) {
        var record = Optional(record)
        let wake = state.withLock { state -> Bool in
            state.accepted += 1
            guard !state.isClosed, state.queue.count < limits.hardLimit else {
                state.dropped += 1
                return false
            }
            state.queue.append(record.take()!)
            return state.queue.count == limits.maxBatchSize || state.queue.count == limits.memoryLimit
        }
        if wake { thread.wake() }
    }

    /// Accepts `records` together: all queued in one lock, or all counted as dropped (over the hard limit, or after
    /// shutdown). Whether they were queued.
    func record(all records: [Record]) -> Bool {
        let (queued, wake) = state.withLock { state -> (Bool, Bool) in
            state.accepted += records.count
            guard !state.isClosed, state.queue.count + records.count <= limits.hardLimit else {
                state.dropped += records.count
                return (false, false)
            }
            let before = state.queue.count
            state.queue.append(contentsOf: records)
            let after = state.queue.count
            return (true, [limits.maxBatchSize, limits.memoryLimit].contains { before < $0 && after >= $0 })
        }
        if wake { thread.wake() }
        return queued
    }

    /// The pipeline's counters now.
    var counters: HitCounters { state.withLock { $0.counters } }

    /// Why the spool cannot be written, when the last append or check failed (`/readyz`, docs/FAULTS.md).
    var spoolFailure: String? { state.withLock { $0.spoolFailure } }

    /// Runs `writer` until it has drained after a stop (on the writer thread, or on the caller of a `shutdown()`
    /// before `start()`: the spool belongs to one thread at a time).
    private func run<Target: RecordTarget>(_ writer: RecordWriter<Target>) where Target.Record == Record {
        var writer = writer
        writer.run()
        if !spoolIsConfigured { spool.removeDirectoryIfEmpty() }
        logger.info(
            "\(noun.singular) writer stopped",
            metadata: ["\(noun.plural).written": "\(counters.written)", "\(noun.plural).spooled": "\(counters.spooled)"])
    }

    /// Does the target's first maintenance on the calling thread, then starts the writer on its thread.
    func start<Target: RecordTarget>(_ target: Target) where Target.Record == Record {
        guard !thread.isRunning, !thread.isStopping else { return }
        var writer = RecordWriter(queue: self, target: target)
        writer.maintainIfDue()
        let prepared = writer
        thread.start { [self] in run(prepared) }
    }

    /// Asks the writer to write everything out and waits until it has (idempotent; safe from any thread). If the
    /// writer never ran, drains on the calling thread with `target()`.
    func shutdown<Target: RecordTarget>(_ target: () -> Target) where Target.Record == Record {
        thread.stop { run(RecordWriter(queue: self, target: target())) }
    }

    /// Registers the pipeline's counters and gauges, `linkd_<plural>_…`.
    func register(in metrics: MetricsRegistry) {
        let many = noun.plural
        let series: [(String, String, @Sendable (HitCounters) -> Int)] = [
            ("accepted_total", "\(many.capitalized) accepted by the pipeline.", { $0.accepted }),
            ("written_total", "\(many.capitalized) committed to the database.", { $0.written }),
            ("queued", "\(many.capitalized) in memory waiting for the writer.", { $0.queued }),
            ("spooled", "\(many.capitalized) in the spool waiting for the database.", { $0.spooled }),
            ("spooled_total", "\(many.capitalized) ever appended to the spool.", { $0.spooledTotal }),
            (
                "dropped_total", "\(many.capitalized) lost (over the hard memory limit, after shutdown, or rejected by the database).",
                { $0.dropped }
            ),
            (
                "not_durable",
                "\(many.capitalized) accepted and held in memory only (neither committed nor spooled): what a crash or SIGKILL would lose.",
                { $0.queued }
            ),
        ]
        for (name, help, read) in series {
            metrics.gauge("linkd_\(many)_\(name)", help: help) { [self] in [([:], Double(read(counters)))] }
        }
        metrics.gauge(
            "linkd_\(many)_spool_writable",
            help: "0 when the spool's last append or check failed: a stop while the database is away then loses the \(many) held in memory."
        ) {
            [self] in [([:], spoolFailure == nil ? 1 : 0)]
        }
        let interval = limits.flushInterval.inSeconds
        metrics.gauge(
            "linkd_\(many)_flush_interval_seconds",
            help: "The longest \(noun.one) waits in memory before the writer commits it, while the database is up."
        ) {
            [([:], interval)]
        }
    }
}
