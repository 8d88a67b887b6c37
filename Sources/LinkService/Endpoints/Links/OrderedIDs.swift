import Foundation

/// Ids for the links of one batch that sort in the order of its items (a batch's links share their creation
/// time, and lists order by creation time, then id): random UUIDs whose first 32 bits count up from a random
/// start.
struct OrderedIDs {
    private let start: UInt32

    init(count: Int) {
        precondition(count < 1 << 24)
        start = UInt32.random(in: 0..<(UInt32.max - UInt32(count)))
    }

    /// Version 4 (random) UUIDs, drawn with the system's generator (`getrandom`: `UUID()` opens a device file
    /// each time, which a batch of 100,000 feels).
    subscript(index: Int) -> UUID {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        var bytes = (
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(truncatingIfNeeded: high >> 24), UInt8(truncatingIfNeeded: high >> 16),
            UInt8(truncatingIfNeeded: high >> 8) & 0x0F | 0x40, UInt8(truncatingIfNeeded: high),
            UInt8(truncatingIfNeeded: low >> 56) & 0x3F | 0x80, UInt8(truncatingIfNeeded: low >> 48), UInt8(truncatingIfNeeded: low >> 40),
            UInt8(truncatingIfNeeded: low >> 32), UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16),
            UInt8(truncatingIfNeeded: low >> 8), UInt8(truncatingIfNeeded: low)
        )
        let value = start + UInt32(index)
        bytes.0 = UInt8(value >> 24)
        bytes.1 = UInt8((value >> 16) & 0xFF)
        bytes.2 = UInt8((value >> 8) & 0xFF)
        bytes.3 = UInt8(value & 0xFF)
        return UUID(uuid: bytes)
    }
}
