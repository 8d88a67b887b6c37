import ByteText

/// RFC 3986 percent-decoding of URL components, shared with the matcher (`MatchSubject`) so captures are
/// decoded exactly as the AASA comparison decodes.
enum PercentDecoding {
    /// Decodes `%XX` escapes; a malformed escape is kept as written; invalid UTF-8 becomes U+FFFD.
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var text = text
        return text.withUTF8 { Percent.decodedText($0, plusAsSpace: false) }
    }
}

/// RFC 3986 percent-encoding of a value placed in a path segment.
enum PercentEncoding {
    /// Encodes everything but unreserved characters (and `/` when `keepingSlashes`), upper-case hex.
    static func encode(_ text: String, keepingSlashes: Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepingSlashes:
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
