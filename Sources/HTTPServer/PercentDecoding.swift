import ByteText

/// Percent-decoding for paths and query strings (RFC 3986 §2.1). Malformed escapes are kept literally.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`); invalid UTF-8 becomes U+FFFD.
    static func decode<S: StringProtocol>(_ text: S, plusAsSpace: Bool) -> String {
        text.utf8.withContiguousStorageIfAvailable { decode($0, plusAsSpace: plusAsSpace) }
            ?? Array(text.utf8).withUnsafeBufferPointer { decode($0, plusAsSpace: plusAsSpace) }
    }

    /// Works on the UTF-8 bytes with integer offsets: walking a `Substring`'s UTF-8 view by `String.Index` cost
    /// ~100 instructions a byte (callgrind, a resolve's `url=` item).
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String {
        guard Percent.hasEscapes(bytes, plusAsSpace: plusAsSpace) else { return String(decoding: bytes, as: UTF8.self) }
        // Decoded straight into the string's storage (one allocation); invalid UTF-8 is repaired by `String`.
        return String(unsafeUninitializedCapacity: bytes.count) { Percent.decode(bytes, plusAsSpace: plusAsSpace, into: $0) }
    }

    /// Splits a raw query (`a=1&b=x+y&a=%2F`) into decoded items, in order. Empty pieces are skipped;
    /// a piece without `=` has an empty value.
    static func queryItems(_ rawQuery: String) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        var rawQuery = rawQuery
        rawQuery.withUTF8 { bytes in
            QueryString.forEachItem(bytes) { name, value in
                items.append((decode(name, plusAsSpace: true), value.map { decode($0, plusAsSpace: true) } ?? ""))
            }
        }
        return items
    }
}
