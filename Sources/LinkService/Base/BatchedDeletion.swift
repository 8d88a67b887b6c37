import Dispatch
import Foundation
import Postgres

/// How the retention services delete (`EventRetention`, `WebhookCleanup`): on their thread, in bounded statements of
/// at most `batch` rows, each followed by a rest as long as it took (at least a millisecond), so a backlog of
/// millions never holds a connection, a lock or the database's attention for long.
struct BatchedDeletion: Sendable {
    let pool: ConnectionPool
    /// Days a row is kept.
    let retentionDays: Int
    /// Rows deleted per statement.
    let batch: Int
    /// The service's thread, which rests between statements and tells when to stop.
    let thread: ServiceThread

    init(thread name: String, pool: ConnectionPool, retentionDays: Int, batch: Int) {
        self.pool = pool
        self.retentionDays = retentionDays
        self.batch = batch
        thread = ServiceThread(name: name)
    }

    /// When the rows kept begin, the retention before `now`.
    func cutoff(now: Date = Date()) -> Date {
        now.addingTimeInterval(-Double(retentionDays) * 86_400)
    }

    /// Runs `delete` (one statement of at most `limit` rows, answering how many it deleted) until it deletes fewer
    /// than `batch`. The rows deleted; nil when the thread is stopping.
    func run(_ delete: (_ limit: Int, _ connection: Connection) throws -> Int) throws -> Int? {
        var total = 0
        var deleted = batch
        while deleted == batch {
            let started = DispatchTime.now()
            deleted = try pool.withConnection { try delete(batch, $0) }
            total += deleted
            let took = DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds
            if thread.sleep(until: .now() + .nanoseconds(Int(max(took, 1_000_000)))) { return nil }
        }
        return total
    }
}
