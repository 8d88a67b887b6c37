/// What request threads and a pipeline's writer share, behind `RecordQueue`'s one `Mutex`: memory only.
struct RecordQueueState<Record>: Sendable where Record: Sendable {
    /// Accepted records the writer has not taken yet, oldest first.
    var queue: [Record] = []
    /// Whether the writer has closed the queue (in the same lock as its last look at it): `record` drops.
    var isClosed = false
    var accepted = 0
    var written = 0
    var dropped = 0
    /// Records the writer holds in memory (taken from `queue`, not yet written or spooled).
    var held = 0
    var spooled = 0
    var spooledTotal = 0
    /// Why the spool last could not be written (an append or a check failed); nil once one succeeds again.
    var spoolFailure: String?

    var counters: HitCounters {
        HitCounters(
            accepted: accepted, written: written, queued: queue.count + held, spooled: spooled, spooledTotal: spooledTotal, dropped: dropped
        )
    }
}
