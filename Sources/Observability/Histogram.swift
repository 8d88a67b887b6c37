import Synchronization

/// One histogram series with fixed bucket bounds, for hot paths that resolve their series once
/// (`MetricsRegistry.histogram`) and then only observe: per-thread stripes of atomics, no lock.
public final class Histogram: Sendable {
    /// Upper bounds, ascending.
    let bounds: [Double]
    /// Per stripe: `bounds.count` bucket counts (not cumulative), the total count, the sum as `Double` bits.
    private let stripes: Stripes

    init(bounds: [Double], assignment: StripeAssignment) {
        self.bounds = bounds
        stripes = Stripes(slots: bounds.count + 2, assignment: assignment)
    }

    /// Records one observation.
    public func observe(_ value: Double) {
        let stripe = stripes.assignment.current
        if let bucket = bounds.firstIndex(where: { value <= $0 }) {
            stripes.add(1, to: bucket, stripe: stripe)
        }
        stripes.add(1, to: bounds.count, stripe: stripe)
        let sum = stripes.local(bounds.count + 1, stripe: stripe)
        var current = sum.pointee.load(ordering: .relaxed)
        while true {
            let next = (Double(bitPattern: current) + value).bitPattern
            let (exchanged, original) = sum.pointee.compareExchange(expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Per-bucket counts (not cumulative), the total count and the sum. Read slot by slot: a snapshot taken
    /// during observations may be off by the observations in flight, as in any Prometheus client.
    var snapshot: (counts: [UInt64], count: UInt64, sum: Double) {
        let counts = (0..<bounds.count).map { stripes.sum($0) }
        let sum = (0..<stripes.count).reduce(0.0) { $0 + Double(bitPattern: stripes.load(stripe: $1, slot: bounds.count + 1)) }
        return (counts, stripes.sum(bounds.count), sum)
    }
}
