import Dispatch
import Synchronization

/// A `HitBatchSummary` being computed on a global dispatch queue; `wait()` returns it.
final class PendingSummary: Sendable {
    private let result = Mutex<HitBatchSummary?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ hits: ArraySlice<Hit>, knownVisitors: Set<HitBatchSummary.VisitorKey>) {
        DispatchQueue.global().async { [self] in
            let summary = HitBatchSummary(hits, knownVisitors: knownVisitors)
            result.withLock { $0 = summary }
            done.signal()
        }
    }

    /// Blocks until the summary is ready (once; later calls return the same value without waiting).
    func wait() -> HitBatchSummary {
        if let ready = result.withLock({ $0 }) { return ready }
        done.wait()
        return result.withLock { $0! }
    }
}
