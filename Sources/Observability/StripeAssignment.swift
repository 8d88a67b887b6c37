import Glibc
import Synchronization

/// Which stripe each thread uses, for the `Stripes` and per-thread caches of one owner (an application, a
/// server): a thread gets the next stripe the first time it asks that owner's assignment, and keeps it in a
/// thread-specific slot of the assignment's own. `count` is sized from the threads that record often (the
/// server's workers and the background threads beside them), so none of them shares a stripe with another
/// while no more threads ask than that; more threads share stripes round-robin, which costs contention, not
/// correctness.
///
/// `@unchecked Sendable`: `key` is created in `init` and deleted in `deinit`; the slots hold plain integers.
public final class StripeAssignment: @unchecked Sendable {
    /// Stripes per value: a power of two.
    public let count: Int
    private let key: pthread_key_t
    private let next = Atomic<Int>(0)

    /// An assignment for `threads` threads that record often (at least 1); `count` is the power of two at or
    /// above it.
    public init(threads: Int) {
        var count = 1
        while count < threads { count <<= 1 }
        self.count = count
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        self.key = key
    }

    deinit {
        pthread_key_delete(key)
    }

    /// The calling thread's stripe, from 0 to `count - 1`.
    @inline(__always)
    public var current: Int {
        if let stored = pthread_getspecific(key) { return (Int(bitPattern: stored) - 1) & (count - 1) }
        let stripe = next.wrappingAdd(1, ordering: .relaxed).oldValue & (count - 1)
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: stripe + 1))
        return stripe
    }
}
