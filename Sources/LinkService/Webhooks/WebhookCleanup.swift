import Dispatch
import Foundation
import Observability
import Postgres

/// Removes what the webhook outbox no longer needs, off the request path and in bounded batches (docs/WEBHOOKS.md,
/// "Deleting a subscription"): the rows of deleted subscriptions (a delete answers at once, and `wake()` starts
/// this), and, hourly, delivered events past the retention. Each batch is one short statement of at most
/// `batch` rows, and the thread rests as long as the batch took before the next one, so a backlog of millions
/// never holds a connection, a lock or the database's attention for long: requests of every workspace go on.
final class WebhookCleanup: BackgroundService {
    let name = "webhook cleanup"
    static let threads = 1

    private let pool: ConnectionPool
    private let retentionDays: Int
    private let logger: Logger
    private let worker = ServiceThread(name: "linkd.webhooks.clean")
    /// Rows deleted per statement.
    let batch: Int
    /// Between two passes when nothing wakes it.
    static let period: DispatchTimeInterval = .seconds(60)

    init(pool: ConnectionPool, retentionDays: Int, batch: Int = 2_000, logger: Logger) {
        self.pool = pool
        self.retentionDays = retentionDays
        self.batch = batch
        self.logger = logger
    }

    var isHealthy: Bool { worker.isRunning }

    func start() {
        worker.start { [self] in run() }
    }

    func shutdown() {
        worker.stop()
    }

    /// A subscription was deleted: its rows go now rather than at the next pass.
    func wake() {
        worker.wake()
    }

    private func run() {
        var prunedAt = ContinuousClock.now - .seconds(3600)
        while !worker.isStopping {
            do {
                if try !cleanUpDeleted() { return }
                if ContinuousClock.now - prunedAt >= .seconds(3600) {
                    if try !prune() { return }
                    prunedAt = .now
                }
            } catch {
                logger.warning("webhook cleanup: the outbox cannot be cleaned now", metadata: ["error": "\(error)"])
            }
            if worker.sleep(until: .now() + Self.period) { return }
        }
    }

    /// Deletes the rows of every deleted subscription, batch after batch; false when stopping.
    private func cleanUpDeleted() throws -> Bool {
        while true {
            let webhooks = try pool.withConnection { try WebhookStore.cleanups(limit: 100, on: $0) }
            guard !webhooks.isEmpty else { return true }
            for webhook in webhooks {
                let deleted = try worker.deleteInBatches(of: batch) {
                    try pool.withConnection { try WebhookStore.cleanUp(webhook, limit: batch, on: $0) }
                }
                if deleted == nil { return false }
            }
        }
    }

    /// Deletes delivered events past the retention, batch after batch; false when stopping.
    private func prune() throws -> Bool {
        let cutoff = Date().addingTimeInterval(-Double(retentionDays) * 86_400)
        return try worker.deleteInBatches(of: batch) {
            try pool.withConnection { try WebhookStore.prune(before: cutoff, limit: batch, on: $0) }
        } != nil
    }
}
