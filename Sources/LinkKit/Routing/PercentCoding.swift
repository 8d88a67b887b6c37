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

/// RFC 3986 percent-encoding of a value placed in a path segment (ByteText's `Percent.encoded`).
enum PercentEncoding {
    /// Encodes everything but unreserved characters (and `/` when `keepingSlashes`), upper-case hex.
    static func encode(_ text: String, keepingSlashes: Bool) -> String {
        Percent.encoded(text) { Percent.isUnreserved($0) || (keepingSlashes && $0 == UInt8(ascii: "/")) }
    }
}
