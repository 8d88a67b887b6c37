import Dispatch
import Foundation
import Observability
import Postgres

/// Deletes raw events older than `--events-retention-days` (docs/EVENTS.md, "Retention"), at start and hourly, as
/// hits' retention drops their old partitions. Events are one table, not partitions (their idempotency key is unique
/// whatever their time), so they go in bounded batches, workspace by workspace through the index by time, the thread
/// resting as long as each batch took before the next: a backlog of millions never holds a connection or a lock for
/// long. Aggregates kept elsewhere (rollups) stay.
final class EventRetention: BackgroundService {
    let name = "event retention"
    static let threads = 1

    private let pool: ConnectionPool
    private let retentionDays: Int
    private let logger: Logger
    private let worker = ServiceThread(name: "linkd.events.retention")
    /// Rows deleted per statement.
    let batch: Int
    /// Between two passes.
    static let period: DispatchTimeInterval = .seconds(3600)

    init(pool: ConnectionPool, retentionDays: Int, batch: Int = 2_000, logger: Logger) {
        self.pool = pool
        self.retentionDays = retentionDays
        self.batch = batch
        self.logger = logger
    }

    var isHealthy: Bool { worker.isRunning }

    func start() {
        worker.start { [self] in
            repeat {
                do {
                    _ = try prune()
                } catch {
                    logger.warning("event retention: old events cannot be deleted now", metadata: ["error": "\(error)"])
                }
            } while !worker.isStopping && !worker.sleep(until: .now() + Self.period)
        }
    }

    func shutdown() {
        worker.stop()
    }

    /// Deletes the events that happened more than the retention before `now`, batch after batch; answers how many
    /// (nil when stopped midway).
    func prune(now: Date = Date()) throws -> Int? {
        let cutoff = now.addingTimeInterval(-Double(retentionDays) * 86_400)
        var total = 0
        for workspace in try pool.withConnection({ try EventStore.workspaces(on: $0) }) {
            let deleted = try worker.deleteInBatches(of: batch) {
                try pool.withConnection { try EventStore.prune(workspace: workspace, before: cutoff, limit: batch, on: $0) }
            }
            guard let deleted else { return nil }
            total += deleted
        }
        if total > 0 { logger.info("event retention: old events deleted", metadata: ["events.deleted": "\(total)"]) }
        return total
    }

}
