/// Percent-decoding (RFC 3986 §2.1) on UTF-8 bytes: the one loop under the HTTP layer's path and query decoding
/// and the matcher's decoded forms, so a request and the matcher read `%XX` alike. A `%` not followed by two hex
/// digits stays as written. Also the one percent-encoder, for whatever set of bytes a caller may leave as they are.
public enum Percent {
    /// `text` with every UTF-8 byte outside `allowed` written `%XX` (upper-case hex); `text` itself when every
    /// byte is allowed.
    @inlinable
    public static func encoded(_ text: String, keeping allowed: (UInt8) -> Bool) -> String {
        guard !text.utf8.allSatisfy(allowed) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if allowed(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), Hex.upperDigit(byte >> 4), Hex.upperDigit(byte & 0x0F)]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `bytes` with every byte outside `allowed` written `%XX` (upper-case hex), as text: for bytes that need not be
    /// UTF-8 (a percent-decoded path segment), which `encoded(_:keeping:)` would have to repair first.
    public static func encoded(bytes: some Sequence<UInt8>, keeping allowed: (UInt8) -> Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 3)
        for byte in bytes {
            if allowed(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), Hex.upperDigit(byte >> 4), Hex.upperDigit(byte & 0x0F)]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 3986 unreserved characters (§2.3): ALPHA, DIGIT, `-`, `.`, `_`, `~`.
    @inlinable
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Printable ASCII, `!` to `~`: bytes outside it (controls, space, DEL, non-ASCII) may never stand in a URL.
    @inlinable
    public static func isPrintableASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

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
    public static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, into out: UnsafeMutableBufferPointer<UInt8>,
        noticingNUL decodedNUL: inout Bool
    ) -> Int {
        precondition(out.count >= bytes.count, "the output is shorter than the input")
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = Hex.value(bytes[index + 1]), let low = Hex.value(bytes[index + 2])
            {
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
        return String(unsafeUninitializedCapacity: bytes.count) {
            decode(bytes, plusAsSpace: plusAsSpace, into: $0, noticingNUL: &decodedNUL)
        }
    }

    /// `bytes` decoded (`%XX` only; `+` stays).
    @inlinable
    public static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { out, count in count = decode(bytes, plusAsSpace: false, into: out) }
    }
}
