/// Hexadecimal text of bytes, both ways: the one implementation under every layer that reads or writes it
/// (percent-decoding, JSON `\u` escapes, `bytea` and `uuid` text, API keys, hashes, request ids). Written as
/// lower case; read in either case.
public enum Hex {
    /// The value of an ASCII hex digit (either case), or nil for any other byte.
    @inlinable
    public static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The lower-case digit of a value below 16 (computed: no table to load).
    @inlinable
    public static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
    }

    /// The upper-case digit of a value below 16 (percent-encoding's `%XX`, RFC 3986 §2.1 "should use uppercase").
    @inlinable
    public static func upperDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") - 10 + nibble
    }

    /// The bytes as lower-case hex, two digits a byte.
    @inlinable
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var index = 0
            for byte in bytes {
                out[index] = digit(byte >> 4)
                out[index + 1] = digit(byte & 0x0F)
                index += 2
            }
            return index
        }
    }

    /// Appends the hex digits of `bytes` to `out` (for byte buffers being assembled, without a `String` between).
    @inlinable
    public static func append(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        for byte in bytes {
            out.append(digit(byte >> 4))
            out.append(digit(byte & 0x0F))
        }
    }
}
