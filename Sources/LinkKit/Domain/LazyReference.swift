import Synchronization

/// An object made on first use and kept: what a compiled domain holds only for the few domains that need it
/// (the Android tables, which only Android resolves and the generators read). The first caller makes it under
/// the lock, so it is made once; later callers take the lock to read the reference.
final class LazyReference<Object: AnyObject & Sendable>: Sendable {
    private let slot = Mutex<Object?>(nil)

    init() {}

    /// The object, made by `make` on the first call.
    func object(_ make: () -> Object) -> Object {
        slot.withLock { slot in
            if let object = slot { return object }
            let object = make()
            slot = object
            return object
        }
    }

    /// Whether the object has been made (for tests and the memory figures).
    var isMade: Bool { slot.withLock { $0 != nil } }
}
