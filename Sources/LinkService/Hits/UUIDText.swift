import Foundation

/// Lower-case UUID text without `uuid_unparse` (which formats through `sprintf` on Linux: it was the hit
/// writer's largest cost), and a byte-wise order for sorting keys.
enum UUIDText {
    /// The nil UUID, for ordering absent ids first.
    static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    static func string(_ id: UUID) -> String {
        String(unsafeUninitializedCapacity: 36) { write(id, into: $0) }
    }

    /// Appends the 36 characters of `string(id)`.
    static func append(_ id: UUID, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: 36))
        out.withUnsafeMutableBufferPointer { buffer in
            _ = write(id, into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    private static func write(_ id: UUID, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        withUnsafeBytes(of: id.uuid) { raw in
            var out = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    buffer[out] = UInt8(ascii: "-")
                    out += 1
                }
                buffer[out] = Hex.digits[Int(raw[index] >> 4)]
                buffer[out + 1] = Hex.digits[Int(raw[index] & 0x0F)]
                out += 2
            }
            return out
        }
    }

    /// Parses `8-4-4-4-12` hex (either case); nil for anything else. (`UUID(uuidString:)` goes through
    /// `sscanf` on Linux: too slow for replaying a spool of millions of hits.)
    static func parse(_ text: Substring) -> UUID? {
        var bytes = [UInt8](repeating: 0, count: 16)
        var count = 0
        var high: UInt8? = nil
        var index = 0
        for byte in text.utf8 {
            defer { index += 1 }
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = Hex.value(byte) else { return nil }
            if let first = high {
                guard count < 16 else { return nil }
                bytes[count] = first << 4 | nibble
                count += 1
                high = nil
            } else {
                high = nibble
            }
        }
        guard index == 36, count == 16 else { return nil }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// Byte-wise `<`, the order PostgreSQL's `uuid` type sorts in.
    static func less(_ a: UUID, _ b: UUID) -> Bool {
        withUnsafeBytes(of: a.uuid) { x in
            withUnsafeBytes(of: b.uuid) { y in
                for index in 0..<16 where x[index] != y[index] { return x[index] < y[index] }
                return false
            }
        }
    }
}
