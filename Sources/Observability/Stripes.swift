import Glibc
import Synchronization

/// Per-thread stripes of atomic `UInt64` slots: values that many threads update on every request (counters,
/// histogram buckets, in-flight counts) are spread over `count` stripes, each on cache lines of its own, so two
/// cores recording at once do not pass one cache line back and forth. Readers sum the stripes.
///
/// `@unchecked Sendable`: the slots are allocated once, accessed only through their atomics, freed in `deinit`.
public final class Stripes: @unchecked Sendable {
    /// Stripes per value: enough to keep a handful of worker threads apart.
    public static let count = 4
    /// Slots per stripe, rounded up to whole 64-byte cache lines.
    private let stride: Int
    public let slotsPerStripe: Int
    private let base: UnsafeMutablePointer<Atomic<UInt64>>

    /// Creates `slots` zeroed slots per stripe.
    public init(slots: Int) {
        slotsPerStripe = slots
        stride = (slots + 7) / 8 * 8
        let raw = UnsafeMutableRawPointer.allocate(byteCount: stride * Self.count * MemoryLayout<UInt64>.stride, alignment: 64)
        base = raw.bindMemory(to: Atomic<UInt64>.self, capacity: stride * Self.count)
        for index in 0..<(stride * Self.count) {
            (base + index).initialize(to: Atomic(0))
        }
    }

    deinit {
        base.deinitialize(count: stride * Self.count)
        UnsafeMutableRawPointer(base).deallocate()
    }

    /// The calling thread's stripe: handed out round-robin the first time a thread asks and kept in a
    /// thread-specific slot, so the first `count` threads (the server's workers) never share one.
    @inline(__always)
    public static var current: Int {
        if let stored = pthread_getspecific(threadKey) { return Int(bitPattern: stored) - 1 }
        let stripe = nextStripe.wrappingAdd(1, ordering: .relaxed).oldValue & (count - 1)
        pthread_setspecific(threadKey, UnsafeRawPointer(bitPattern: stripe + 1))
        return stripe
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()
    private static let nextStripe = Atomic<Int>(0)

    /// The slot `slot` of `stripe` (by default the calling thread's).
    @inline(__always)
    public func local(_ slot: Int, stripe: Int = Stripes.current) -> UnsafeMutablePointer<Atomic<UInt64>> {
        base + stripe * stride + slot
    }

    /// Adds `amount` to `slot` in the calling thread's stripe.
    @inline(__always)
    public func add(_ amount: UInt64, to slot: Int) {
        local(slot).pointee.add(amount, ordering: .relaxed)
    }

    /// Adds `amount` to `slot` of `stripe` and returns the new value of that slot.
    @inline(__always) @discardableResult
    public func add(_ amount: UInt64, to slot: Int, stripe: Int) -> UInt64 {
        local(slot, stripe: stripe).pointee.add(amount, ordering: .relaxed).newValue
    }

    /// Subtracts `amount` from `slot` in the calling thread's stripe (wrapping: only the sum is meaningful).
    @inline(__always)
    public func subtract(_ amount: UInt64, from slot: Int) {
        local(slot).pointee.wrappingSubtract(amount, ordering: .relaxed)
    }

    /// `slot` of stripe `stripe`.
    public func load(stripe: Int, slot: Int) -> UInt64 {
        base[stripe * stride + slot].load(ordering: .relaxed)
    }

    /// `slot` summed over the stripes (wrapping, so increments and decrements on different stripes cancel).
    public func sum(_ slot: Int) -> UInt64 {
        var total: UInt64 = 0
        for stripe in 0..<Self.count {
            total &+= base[stripe * stride + slot].load(ordering: .relaxed)
        }
        return total
    }
}
