import Synchronization

/// An object made on first use and kept: what a compiled domain holds only for the domains that need it (the
/// Android tables, which only Android resolves and the generators read; the iOS matcher, which only resolves
/// read). Reading a made object is one atomic load, with no lock and no store to a shared cache line, so every
/// request thread can read it at once. Threads that race on the first use may each make one; the first stored
/// is kept and every caller gets that one.
final class LazyReference<Object: AnyObject & Sendable>: Sendable {
    private let slot = AtomicLazyReference<Object>()

    init() {}

    /// The object, made by `make` when none is kept yet.
    func object(_ make: () -> Object) -> Object {
        if let object = slot.load() { return object }
        return slot.storeIfNil(make())
    }

    /// Whether the object has been made (for tests and the memory figures).
    var isMade: Bool { slot.load() != nil }
}
