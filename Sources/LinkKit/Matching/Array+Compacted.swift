extension Array {
    /// The same elements in storage of exactly their count. An array built by appending keeps up to twice the room
    /// it needs; arrays kept for the life of a compiled domain are compacted once built.
    func compacted() -> [Element] {
        guard capacity > count else { return self }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: self)
        }
    }
}
