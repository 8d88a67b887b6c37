import Dispatch
import Foundation
import LinkKit
import Observability
import Postgres

/// Tells `conversion.recorded` subscribers of each stored conversion (docs/EVENTS.md, "Out"): reads the events
/// stored since its last pass from the table's feed (`EventStore.feedEnd`, a cursor over `(tx, seq)`), not from the
/// insert path, so it sees every row however it landed. Each pass queues the batch's conversions into the webhook
/// outbox and moves the cursor in the same transaction, so an event is queued once across restarts and nodes (the
/// cursor's row is locked for the pass; a node that finds it locked leaves the pass to the other). Its webhook id
/// derives from the event's id.
final class ConversionWebhooks: SingleThreadService {
    let name = "conversion webhooks"
    /// The feed reader's name in `event_feed_cursors`.
    static let reader = WebhookEventType.conversionRecorded.rawValue

    private let pool: ConnectionPool
    private let logger: Logger
    private let outbox: WebhookOutboxBell
    private let interval: DispatchTimeInterval
    let thread = ServiceThread(name: "linkd.events.feed")
    /// Events read per pass (and per transaction) at most.
    let batch: Int

    init(
        pool: ConnectionPool, logger: Logger, outbox: WebhookOutboxBell, interval: DispatchTimeInterval = .seconds(1),
        batch: Int = 1_000
    ) {
        self.pool = pool
        self.logger = logger
        self.outbox = outbox
        self.interval = interval
        self.batch = batch
    }

    /// Passes until the feed has nothing more to read now, every `interval`.
    func start() {
        thread.startPasses(every: interval, logger: logger, failure: "cannot queue conversion.recorded events now") { [self] in
            while try pass() == batch, !thread.isStopping {}
        }
    }

    /// Reads one batch of the feed and queues its conversions; answers how many events it passed.
    @discardableResult
    func pass() throws -> Int {
        let (passed, queued) = try pool.withTransaction { connection -> (Int, Int) in
            guard let from = try EventStore.lockFeed(Self.reader, on: connection),
                let end = try EventStore.feedEnd(after: from, limit: batch, on: connection)
            else { return (0, 0) }
            let events = try EventStore.conversions(after: from, upTo: end.0, on: connection)
            let queued = try WebhookStore.enqueue(events.map(Self.webhookEvent), on: connection)
            try EventStore.moveFeed(Self.reader, to: end.0, on: connection)
            return (end.count, queued)
        }
        if queued > 0 { outbox.ring() }
        return passed
    }

    /// The webhook event telling `event`, timed when it was recorded.
    static func webhookEvent(_ event: StoredEvent) -> WebhookEvent {
        WebhookEvent(
            .conversionRecorded, id: event.id, workspace: event.workspace, data: .object(["event": event.json]), time: event.receivedAt)
    }
}
