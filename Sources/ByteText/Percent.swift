/// Percent-decoding (RFC 3986 §2.1) on UTF-8 bytes: the one loop under the HTTP layer's path and query decoding
/// and the matcher's decoded forms, so a request and the matcher read `%XX` alike. A `%` not followed by two hex
/// digits stays as written.
public enum Percent {
    /// Whether decoding would change `bytes` (a `%`, or a `+` when `plusAsSpace`).
    @inlinable
    public static func hasEscapes(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> Bool {
        bytes.contains { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }
    }

    /// Decodes `bytes` into `out` (at least `bytes.count` long: decoding never lengthens), `+` as a space when
    /// `plusAsSpace`. Returns how many bytes were written.
    @inlinable
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var decodedNUL = false
        return decode(bytes, plusAsSpace: plusAsSpace, into: out, noticingNUL: &decodedNUL)
    }

    /// `decode(_:plusAsSpace:into:)`, also setting `decodedNUL` when an escape decodes to a NUL byte (`%00`, the only
    /// one that does): text a server passes on to C strings or PostgreSQL must not hold one, and noticing it here
    /// costs a compare per escape instead of another pass over the bytes.
    @inlinable
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, into out: UnsafeMutableBufferPointer<UInt8>,
                              noticingNUL decodedNUL: inout Bool) -> Int {
        precondition(out.count >= bytes.count, "the output is shorter than the input")
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = Hex.value(bytes[index + 1]), let low = Hex.value(bytes[index + 2]) {
                let value = high << 4 | low
                if value == 0 { decodedNUL = true }
                out[count] = value
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

    /// `decodedText(_:plusAsSpace:)`, also setting `decodedNUL` when the text holds a decoded NUL (`%00`).
    @inlinable
    public static func decodedText(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, noticingNUL decodedNUL: inout Bool) -> String {
        guard hasEscapes(bytes, plusAsSpace: plusAsSpace) else { return String(decoding: bytes, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: bytes.count) { decode(bytes, plusAsSpace: plusAsSpace, into: $0, noticingNUL: &decodedNUL) }
    }

    /// `bytes` decoded (`%XX` only; `+` stays).
    @inlinable
    public static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { out, count in count = decode(bytes, plusAsSpace: false, into: out) }
    }
}
