import Synchronization

/// One counter series (a metric name with fixed label values): a lock-free atomic, for hot paths that
/// resolve their series once (`MetricsRegistry.counter`) and then only increment it.
public final class Counter: Sendable {
    private let count = Atomic<UInt64>(0)

    init() {}

    /// Adds `amount`.
    public func increment(by amount: UInt64 = 1) {
        count.add(amount, ordering: .relaxed)
    }

    /// The current value.
    public var value: UInt64 { count.load(ordering: .relaxed) }
}
