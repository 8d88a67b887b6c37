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
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        // Decoded straight into the string's storage (one allocation); invalid UTF-8 is repaired by `String`.
        return String(unsafeUninitializedCapacity: bytes.count) { out in
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
    }

    /// Splits a raw query (`a=1&b=x+y&a=%2F`) into decoded items, in order. Empty pieces are skipped;
    /// a piece without `=` has an empty value.
    static func queryItems(_ rawQuery: String) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        var rawQuery = rawQuery
        rawQuery.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
                if start != end {
                    var equals = start
                    while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                    let name = decode(UnsafeBufferPointer(rebasing: bytes[start..<equals]), plusAsSpace: true)
                    let value = equals < end ? decode(UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), plusAsSpace: true) : ""
                    items.append((name, value))
                }
                start = end + 1
            }
        }
        return items
    }
}
