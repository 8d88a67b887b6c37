import Dispatch

extension ServiceThread {
    /// Runs `delete` (one bounded statement, answering how many rows it deleted) until it deletes fewer than
    /// `batch`, resting after each statement as long as it took (at least a millisecond): a backlog of millions
    /// never holds a connection, a lock or the database's attention for long. The rows deleted; nil when the
    /// thread is stopping.
    func deleteInBatches(of batch: Int, _ delete: () throws -> Int) rethrows -> Int? {
        var total = 0
        var deleted = batch
        while deleted == batch {
            let started = DispatchTime.now()
            deleted = try delete()
            total += deleted
            let took = DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds
            if sleep(until: .now() + .nanoseconds(Int(max(took, 1_000_000)))) { return nil }
        }
        return total
    }
}
