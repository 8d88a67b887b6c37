import Glibc
import Synchronization

/// Per-thread stripes of atomic `UInt64` slots: values that many threads update on every request (counters,
/// histogram buckets, in-flight counts) are spread over the stripes of a `StripeAssignment`, each on cache
/// lines of its own, so two cores recording at once do not pass one cache line back and forth. Readers sum the
/// stripes.
///
/// `@unchecked Sendable`: the slots are allocated once, accessed only through their atomics, freed in `deinit`.
public final class Stripes: @unchecked Sendable {
    /// Which stripe the calling thread records in.
    public let assignment: StripeAssignment
    /// Stripes per value.
    public var count: Int { assignment.count }
    /// Slots per stripe, rounded up to whole 64-byte cache lines.
    private let stride: Int
    public let slotsPerStripe: Int
    private let base: UnsafeMutablePointer<Atomic<UInt64>>

    /// Creates `slots` zeroed slots per stripe of `assignment`.
    public init(slots: Int, assignment: StripeAssignment) {
        self.assignment = assignment
        slotsPerStripe = slots
        stride = (slots + 7) / 8 * 8
        let total = stride * assignment.count
        let raw = UnsafeMutableRawPointer.allocate(byteCount: total * MemoryLayout<UInt64>.stride, alignment: 64)
        base = raw.bindMemory(to: Atomic<UInt64>.self, capacity: total)
        for index in 0..<total {
            (base + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        base.deinitialize(count: stride * count)
        UnsafeMutableRawPointer(base).deallocate()
    }

    /// The slot `slot` of `stripe` (`assignment.current` for the calling thread's).
    @inline(__always)
    public func local(_ slot: Int, stripe: Int) -> UnsafeMutablePointer<Atomic<UInt64>> {
        base + stripe * stride + slot
    }

    /// Adds `amount` to `slot` in the calling thread's stripe.
    @inline(__always)
    public func add(_ amount: UInt64, to slot: Int) {
        local(slot, stripe: assignment.current).pointee.add(amount, ordering: .relaxed)
    }

    /// Adds `amount` to `slot` of `stripe` and returns the new value of that slot.
    @inline(__always) @discardableResult
    public func add(_ amount: UInt64, to slot: Int, stripe: Int) -> UInt64 {
        local(slot, stripe: stripe).pointee.add(amount, ordering: .relaxed).newValue
    }

    /// Subtracts `amount` from `slot` in the calling thread's stripe (wrapping: only the sum is meaningful).
    /// Relaxed unless `sequentiallyConsistent`, for a caller that pairs the update with another atomic.
    @inline(__always)
    public func subtract(_ amount: UInt64, from slot: Int, sequentiallyConsistent: Bool = false) {
        let value = local(slot, stripe: assignment.current)
        if sequentiallyConsistent {
            value.pointee.wrappingSubtract(amount, ordering: .sequentiallyConsistent)
        } else {
            value.pointee.wrappingSubtract(amount, ordering: .relaxed)
        }
    }

    /// `slot` of stripe `stripe`.
    public func load(stripe: Int, slot: Int) -> UInt64 {
        base[stripe * stride + slot].load(ordering: .relaxed)
    }

    /// `slot` summed over the stripes (wrapping, so increments and decrements on different stripes cancel).
    /// Relaxed loads unless `sequentiallyConsistent`.
    public func sum(_ slot: Int, sequentiallyConsistent: Bool = false) -> UInt64 {
        var total: UInt64 = 0
        for stripe in 0..<count {
            let value = base + stripe * stride + slot
            total &+=
                sequentiallyConsistent ? value.pointee.load(ordering: .sequentiallyConsistent) : value.pointee.load(ordering: .relaxed)
        }
        return total
    }
}
