/// Percent-decoding (RFC 3986 §2.1) on UTF-8 bytes: the one loop under the HTTP layer's path and query decoding
/// and the matcher's decoded forms, so a request and the matcher read `%XX` alike. A `%` not followed by two hex
/// digits stays as written.
public enum Percent {
    /// Whether decoding would change `bytes` (a `%`, or a `+` when `plusAsSpace`).
    @inlinable
    public static func hasEscapes(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> Bool {
        bytes.contains { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }
    }

    /// Whether decoding `bytes` yields a NUL byte: whether they hold `%00` (no other escape decodes to 0, and no
    /// escape can start inside another, whose second byte would be a `%`).
    @inlinable
    public static func encodesNUL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index + 2 < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), bytes[index + 1] == UInt8(ascii: "0"), bytes[index + 2] == UInt8(ascii: "0") { return true }
            index += 1
        }
        return false
    }

    /// Decodes `bytes` into `out` (at least `bytes.count` long: decoding never lengthens), `+` as a space when
    /// `plusAsSpace`. Returns how many bytes were written.
    @inlinable
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(out.count >= bytes.count, "the output is shorter than the input")
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = Hex.value(bytes[index + 1]), let low = Hex.value(bytes[index + 2]) {
                out[count] = high << 4 | low
                index += 3
            } else {
                out[count] = plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                index += 1
            }
            count += 1
        }
        return count
    }

    /// `bytes` decoded as text, straight into the string's storage (one allocation, none to decode when there is
    /// no escape); invalid UTF-8 is repaired by `String`.
    @inlinable
    public static func decodedText(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String {
        guard hasEscapes(bytes, plusAsSpace: plusAsSpace) else { return String(decoding: bytes, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: bytes.count) { decode(bytes, plusAsSpace: plusAsSpace, into: $0) }
    }

    /// `bytes` decoded (`%XX` only; `+` stays).
    @inlinable
    public static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { out, count in count = decode(bytes, plusAsSpace: false, into: out) }
    }
}
