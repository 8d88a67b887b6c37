import Foundation

/// Lower-case UUID text without `uuid_unparse` (which formats through `sprintf` on Linux: it was the hit
/// writer's largest cost), and a byte-wise order for sorting keys.
enum UUIDText {
    /// The nil UUID, for ordering absent ids first.
    static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    private static let digits = Array("0123456789abcdef".utf8)

    static func string(_ id: UUID) -> String {
        let bytes = id.uuid
        return withUnsafeBytes(of: bytes) { raw in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var out = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        buffer[out] = UInt8(ascii: "-")
                        out += 1
                    }
                    buffer[out] = digits[Int(raw[index] >> 4)]
                    buffer[out + 1] = digits[Int(raw[index] & 0x0F)]
                    out += 2
                }
                return out
            }
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
