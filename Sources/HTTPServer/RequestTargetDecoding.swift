import ByteText

/// Percent-decoding of a request target's path parameters and query items (RFC 3986 §2.1). Malformed escapes
/// are kept literally.
enum RequestTargetDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`); invalid UTF-8 becomes U+FFFD.
    /// Works on the UTF-8 bytes with integer offsets (`Percent`), not a `Substring`'s UTF-8 view by `String.Index`,
    /// which costs many times more a byte (a resolve's `url=` item is decoded here).
    /// `decodedNUL` is set when the decoded text holds a NUL (`%00`): text no handler may take (PostgreSQL refuses
    /// NUL in `text`, and C APIs would cut it there).
    static func decode<S: StringProtocol>(_ text: S, plusAsSpace: Bool, noticingNUL decodedNUL: inout Bool) -> String {
        text.utf8.withContiguousStorageIfAvailable { Percent.decodedText($0, plusAsSpace: plusAsSpace, noticingNUL: &decodedNUL) }
            ?? Array(text.utf8).withUnsafeBufferPointer { Percent.decodedText($0, plusAsSpace: plusAsSpace, noticingNUL: &decodedNUL) }
    }

    /// Splits a raw query (`a=1&b=x+y&a=%2F`) into decoded items, in order. Empty pieces are skipped;
    /// a piece without `=` has an empty value. `decodedNUL` is set when a name or value holds a NUL (`%00`).
    static func queryItems(_ rawQuery: String, noticingNUL decodedNUL: inout Bool) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        var rawQuery = rawQuery
        rawQuery.withUTF8 { bytes in
            // Room for every item at once: grown one append at a time, the array is made anew at 1, 2, 4 and 8 items.
            var separators = 0
            for byte in bytes where byte == UInt8(ascii: "&") { separators += 1 }
            items.reserveCapacity(separators + 1)
            QueryString.forEachItem(bytes) { name, value in
                items.append(
                    (
                        Percent.decodedText(name, plusAsSpace: true, noticingNUL: &decodedNUL),
                        value.map { Percent.decodedText($0, plusAsSpace: true, noticingNUL: &decodedNUL) } ?? ""
                    ))
            }
        }
        return items
    }
}
