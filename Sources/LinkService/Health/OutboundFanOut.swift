import Dispatch
import Synchronization

/// The bound on the health checks' outbound requests: every blocking libcurl fetch of every check (background
/// and on demand, which share one instance through `HealthChecker`) takes one of `width` turns, so no more than
/// `width` wait on the network at once however many checks run; a check's requests go out on at most `width`
/// workers of its own, each taking the next request when it is done with one.
///
/// The default width is the background checks' own need (`HealthChecks`: 4 domains at once, each with up to 4
/// requests), so they never wait for one another; checks on demand wait for a turn beside them.
final class OutboundFanOut: Sendable {
    static let defaultWidth = 16

    let width: Int
    private let turns: DispatchSemaphore

    /// - Parameter width: outbound requests in flight at most (at least 1).
    init(width: Int = OutboundFanOut.defaultWidth) {
        self.width = max(1, width)
        turns = DispatchSemaphore(value: self.width)
    }

    /// `fetch(i)` for every `i` in `0..<count`, each within a turn, on at most `width` workers; answers the results
    /// in order once all are done.
    func map<T: Sendable>(_ count: Int, _ fetch: @escaping @Sendable (Int) -> T) -> [T] {
        Self.map(count, workers: width) { [turns] index in
            turns.wait()
            defer { turns.signal() }
            return fetch(index)
        }
    }

    /// `work(i)` for every `i` in `0..<count` on at most `workers` threads, each taking the next index when done with
    /// one; answers the results in order once all are done.
    static func map<T: Sendable>(_ count: Int, workers: Int, _ work: @escaping @Sendable (Int) -> T) -> [T] {
        guard count > 0 else { return [] }
        let results = Results<T>(count: count)
        let group = DispatchGroup()
        for _ in 0..<min(max(1, workers), count) {
            DispatchQueue.global().async(group: group) {
                while true {
                    let index = results.nextIndex.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < count else { return }
                    results.set(index, work(index))
                }
            }
        }
        group.wait()
        return results.all
    }

    /// The results as the workers set them, and the next index a worker takes.
    private final class Results<T: Sendable>: Sendable {
        let nextIndex = Atomic<Int>(0)
        private let values: Mutex<[T?]>
        init(count: Int) { values = Mutex(Array(repeating: nil, count: count)) }
        func set(_ index: Int, _ value: T) { values.withLock { $0[index] = value } }
        var all: [T] { values.withLock { $0.compactMap { $0 } } }
    }
}
