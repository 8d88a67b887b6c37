import ByteText

/// Percent-decoding of a request target's path parameters (RFC 3986 §2.1; the query's items: `DecodedQuery`).
/// Malformed escapes are kept literally.
enum RequestTargetDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`); invalid UTF-8 becomes U+FFFD.
    /// Works on the UTF-8 bytes with integer offsets (`Percent`), not a `Substring`'s UTF-8 view by `String.Index`,
    /// which costs many times more a byte.
    /// `decodedNUL` is set when the decoded text holds a NUL (`%00`): text no handler may take (PostgreSQL refuses
    /// NUL in `text`, and C APIs would cut it there).
    static func decode<S: StringProtocol>(_ text: S, plusAsSpace: Bool, noticingNUL decodedNUL: inout Bool) -> String {
        text.utf8.withContiguousStorageIfAvailable { Percent.decodedText($0, plusAsSpace: plusAsSpace, noticingNUL: &decodedNUL) }
            ?? Array(text.utf8).withUnsafeBufferPointer { Percent.decodedText($0, plusAsSpace: plusAsSpace, noticingNUL: &decodedNUL) }
    }
}
