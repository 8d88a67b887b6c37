import Foundation
import Observability
import Postgres

/// The event pipeline (docs/EVENTS.md, "Storing"), the hits' shape (`RecordQueue`, docs/HITS.md "Pipeline"):
/// `POST /v1/events` leaves the events it accepted in a bounded in-memory queue and answers without waiting on the
/// database; one writer thread attributes and writes them in batches across requests (`EventWriteTarget`), spools
/// them to disk while the database is away and replays them in order, and writes everything out at shutdown.
/// `/metrics`: `linkd_events_accepted_total`, `_written_total`, `_queued`, `_spooled`, … as the hits'.
final class EventBatcher: BackgroundService {
    let name = "event writer"
    static let threads = 1
    let pool: ConnectionPool
    let attributor: EventAttributor
    let tokens: ClickTokens
    let queue: RecordQueue<EventRecord>

    /// The most events one transaction writes.
    static let maxBatchSize = 20_000

    /// - Parameter spoolDirectory: where events go while the database is away (`<hits' spool>/events` for
    ///   `linkd serve`); nil: a temporary directory, not replayed by a later process.
    /// - Throws: `HitPipelineError` when the spool directory cannot be created or is in use.
    init(
        pool: ConnectionPool, attributor: EventAttributor, tokens: ClickTokens, spoolDirectory: URL?,
        flushInterval: Duration, drainTimeout: Duration = .seconds(10), logger: Logger
    ) throws {
        self.pool = pool
        self.attributor = attributor
        self.tokens = tokens
        queue = try RecordQueue(
            noun: .init(singular: "event", plural: "events", one: "an event"),
            limits: .init(
                maxBatchSize: Self.maxBatchSize, memoryLimit: 100_000, hardLimit: 1_000_000, flushInterval: flushInterval,
                drainTimeout: drainTimeout),
            spoolDirectory: spoolDirectory, spoolSegmentSize: 50_000, logger: logger)
    }

    /// Queues the accepted events of one request together; false when they could not be (the queue is full or
    /// closed): the request then acknowledges none of them.
    func record(_ records: [EventRecord]) -> Bool {
        records.isEmpty || queue.record(all: records)
    }

    /// The pipeline's counters now.
    var counters: HitCounters { queue.counters }

    func start() {
        queue.start(EventWriteTarget(batcher: self))
    }

    func shutdown() {
        queue.shutdown { EventWriteTarget(batcher: self) }
    }

    var isHealthy: Bool { queue.thread.isRunning }

    func register(in metrics: MetricsRegistry) {
        queue.register(in: metrics)
    }
}
