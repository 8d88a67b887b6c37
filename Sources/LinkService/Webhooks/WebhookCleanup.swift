import Dispatch
import Foundation
import Observability
import Postgres
import Synchronization

/// Removes what the webhook outbox no longer needs, off the request path and in bounded batches (docs/WEBHOOKS.md,
/// "Deleting a subscription"): the rows of deleted subscriptions (a delete answers at once, and `wake()` starts
/// this), and, hourly, delivered events past the retention. Each batch is one short statement of at most
/// `batch` rows, and the thread rests as long as the batch took before the next one, so a backlog of millions
/// never holds a connection, a lock or the database's attention for long: requests of every workspace go on.
final class WebhookCleanup: SingleThreadService {
    let name = "webhook cleanup"

    private let deletion: BatchedDeletion
    private let logger: Logger
    var thread: ServiceThread { deletion.thread }
    /// Between two passes when nothing wakes it.
    static let period: DispatchTimeInterval = .seconds(60)
    /// When delivered events past the retention were last deleted (read and written by the thread only).
    private let prunedAt = Mutex(ContinuousClock.now - .seconds(3600))

    init(pool: ConnectionPool, retentionDays: Int, batch: Int = 2_000, logger: Logger) {
        deletion = BatchedDeletion(thread: "linkd.webhooks.clean", pool: pool, retentionDays: retentionDays, batch: batch)
        self.logger = logger
    }

    func start() {
        thread.startPasses(every: Self.period, logger: logger, failure: "webhook cleanup: the outbox cannot be cleaned now") { [self] in
            guard try cleanUpDeleted(), prunedAt.withLock({ ContinuousClock.now - $0 >= .seconds(3600) }) else { return }
            if try prune() { prunedAt.withLock { $0 = .now } }
        }
    }

    /// A subscription was deleted: its rows go now rather than at the next pass.
    func wake() {
        thread.wake()
    }

    /// Deletes the rows of every deleted subscription, batch after batch; false when stopping.
    private func cleanUpDeleted() throws -> Bool {
        while true {
            let webhooks = try deletion.pool.withConnection { try WebhookStore.cleanups(limit: 100, on: $0) }
            guard !webhooks.isEmpty else { return true }
            for webhook in webhooks {
                if try deletion.run({ try WebhookStore.cleanUp(webhook, limit: $0, on: $1) }) == nil { return false }
            }
        }
    }

    /// Deletes delivered events past the retention, batch after batch; false when stopping.
    private func prune() throws -> Bool {
        let cutoff = deletion.cutoff()
        return try deletion.run { try WebhookStore.prune(before: cutoff, limit: $0, on: $1) } != nil
    }
}
