import Synchronization

/// A fixed number of slots, each set at most once to an object and from then on read without a lock: values
/// computed on first use and kept for every thread (the per-route metrics series, the association files' prepared
/// responses).
///
/// What the toolchain's `AtomicLazyReference` does, but in this module, so it is specialized: called across the
/// module boundary, `AtomicLazyReference.load()` runs unspecialized, instantiating generic metadata on every
/// load, and every association-file request loads one.
///
/// `@unchecked Sendable`: `slots` is allocated once, accessed only through its atomics, freed in `deinit`; a slot
/// holds a retained reference (its bit pattern), or 0.
public final class OnceSlots<Object: AnyObject & Sendable>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Atomic<UInt>>
    /// How many slots there are.
    public let count: Int

    public init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        for index in 0..<count { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        for index in 0..<count {
            let bits = (slots + index).pointee.load(ordering: .acquiring)
            if bits != 0 { Self.unmanaged(bits).release() }
        }
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The object in slot `index`, nil while the slot is empty.
    public subscript(index: Int) -> Object? {
        precondition(index >= 0 && index < count, "slot index out of range")
        let bits = (slots + index).pointee.load(ordering: .acquiring)
        return bits == 0 ? nil : Self.unmanaged(bits).takeUnretainedValue()
    }

    /// The object in slot `index`; when the slot is empty, `make()`'s, stored. Two threads filling one slot at
    /// once both call `make()`; the first to store wins and both get its object.
    public func object(_ index: Int, orStore make: () -> Object) -> Object {
        if let object = self[index] { return object }
        let made = Unmanaged.passRetained(make())
        let (stored, current) = (slots + index).pointee.compareExchange(
            expected: 0, desired: UInt(bitPattern: made.toOpaque()), successOrdering: .releasing, failureOrdering: .acquiring)
        if stored { return made.takeUnretainedValue() }
        made.release()
        return Self.unmanaged(current).takeUnretainedValue()
    }

    private static func unmanaged(_ bits: UInt) -> Unmanaged<Object> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }
}
