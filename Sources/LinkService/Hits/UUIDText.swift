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
