/// One counter series (a metric name with fixed label values), for hot paths that resolve their series once
/// (`MetricsRegistry.counter`) and then only increment it: one uncontended atomic add (`Stripes`).
public final class Counter: Sendable {
    private let stripes: Stripes

    init(assignment: StripeAssignment) {
        stripes = Stripes(slots: 1, assignment: assignment)
    }

    /// Adds `amount`.
    public func increment(by amount: UInt64 = 1) {
        stripes.add(amount, to: 0)
    }

    /// The current value.
    public var value: UInt64 { stripes.sum(0) }
}
