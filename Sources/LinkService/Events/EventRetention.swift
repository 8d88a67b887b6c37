import Dispatch
import Foundation
import Observability
import Postgres

/// Deletes raw events older than `--events-retention-days` (docs/EVENTS.md, "Retention"), at start and hourly, as
/// hits' retention drops their old partitions. Events are one table, not partitions (their idempotency key is unique
/// whatever their time), so they go in bounded batches, workspace by workspace through the index by time, the thread
/// resting as long as each batch took before the next: a backlog of millions never holds a connection or a lock for
/// long. Aggregates kept elsewhere (rollups) stay.
final class EventRetention: SingleThreadService {
    let name = "event retention"

    private let deletion: BatchedDeletion
    private let logger: Logger
    var thread: ServiceThread { deletion.thread }
    /// Between two passes.
    static let period: DispatchTimeInterval = .seconds(3600)

    init(pool: ConnectionPool, retentionDays: Int, batch: Int = 2_000, logger: Logger) {
        deletion = BatchedDeletion(thread: "linkd.events.retention", pool: pool, retentionDays: retentionDays, batch: batch)
        self.logger = logger
    }

    func start() {
        thread.startPasses(every: Self.period, logger: logger, failure: "event retention: old events cannot be deleted now") { [self] in
            _ = try prune()
        }
    }

    /// Deletes the events that happened more than the retention before `now`, batch after batch; answers how many
    /// (nil when stopped midway).
    func prune(now: Date = Date()) throws -> Int? {
        let cutoff = deletion.cutoff(now: now)
        var total = 0
        for workspace in try deletion.pool.withConnection({ try EventStore.workspaces(on: $0) }) {
            let deleted = try deletion.run { try EventStore.prune(workspace: workspace, before: cutoff, limit: $0, on: $1) }
            guard let deleted else { return nil }
            total += deleted
        }
        if total > 0 { logger.info("event retention: old events deleted", metadata: ["events.deleted": "\(total)"]) }
        return total
    }
}
