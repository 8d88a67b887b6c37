/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny deterministic generator, for benchmarks and tests that must
/// see the same numbers every run, and its output function `mix`, a bijection of 64-bit values that request ids
/// use to scramble a counter. Not for secrets.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    public init(seed: UInt64) { state = seed }

    @inlinable
    public mutating func next() -> UInt64 {
        defer { state &+= 0x9E37_79B9_7F4A_7C15 }
        return Self.mix(state)
    }

    /// The number a generator seeded with `value` gives first: distinct values give distinct numbers.
    @inlinable
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
