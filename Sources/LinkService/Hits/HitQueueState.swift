/// What request threads and the writer share, behind `HitBatcher`'s one `Mutex`: memory only.
struct HitQueueState: Sendable {
    enum Lifecycle: Sendable { case idle, running, stopping, stopped }

    /// Accepted hits the writer has not taken yet, oldest first.
    var queue: [Hit] = []
    var lifecycle = Lifecycle.idle
    var accepted = 0
    var written = 0
    var dropped = 0
    /// Hits the writer holds in memory (taken from `queue`, not yet written or spooled).
    var held = 0
    var spooled = 0
    var spooledTotal = 0

    var counters: HitCounters {
        HitCounters(accepted: accepted, written: written, queued: queue.count + held, spooled: spooled, spooledTotal: spooledTotal, dropped: dropped)
    }
}
