import Synchronization

/// One histogram series with fixed bucket bounds: lock-free (one atomic per bucket, plus count and sum), for hot
/// paths that resolve their series once (`MetricsRegistry.histogram`) and then only observe.
public final class Histogram: @unchecked Sendable {
    /// Upper bounds, ascending.
    let bounds: [Double]
    /// `bounds.count` bucket counts (not cumulative), then the total count, then the sum as `Double` bits.
    /// `@unchecked Sendable`: the buffer is allocated once, only ever accessed through its atomics, and freed in `deinit`.
    private let slots: UnsafeMutablePointer<Atomic<UInt64>>

    init(bounds: [Double]) {
        self.bounds = bounds
        slots = .allocate(capacity: bounds.count + 2)
        for index in 0..<(bounds.count + 2) {
            (slots + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        slots.deinitialize(count: bounds.count + 2)
        slots.deallocate()
    }

    /// Records one observation.
    public func observe(_ value: Double) {
        if let bucket = bounds.firstIndex(where: { value <= $0 }) {
            slots[bucket].add(1, ordering: .relaxed)
        }
        slots[bounds.count].add(1, ordering: .relaxed)
        let sum = slots + bounds.count + 1
        var current = sum.pointee.load(ordering: .relaxed)
        while true {
            let next = (Double(bitPattern: current) + value).bitPattern
            let (exchanged, original) = sum.pointee.compareExchange(expected: current, desired: next, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Per-bucket counts (not cumulative), the total count and the sum. Read bucket by bucket: a snapshot taken
    /// during observations may be off by the observations in flight, as in any Prometheus client.
    var snapshot: (counts: [UInt64], count: UInt64, sum: Double) {
        let counts = (0..<bounds.count).map { slots[$0].load(ordering: .relaxed) }
        return (counts, slots[bounds.count].load(ordering: .relaxed), Double(bitPattern: slots[bounds.count + 1].load(ordering: .relaxed)))
    }
}
