/// Percent-decoding for paths and query strings (RFC 3986 §2.1). Malformed escapes are kept literally.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`); invalid UTF-8 becomes U+FFFD.
    static func decode<S: StringProtocol>(_ text: S, plusAsSpace: Bool) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        // Decoded straight into the string's storage (one allocation); invalid UTF-8 is repaired by `String`.
        return String(unsafeUninitializedCapacity: utf8.count) { out in
            var count = 0
            var index = utf8.startIndex
            while index != utf8.endIndex {
                let byte = utf8[index]
                index = utf8.index(after: index)
                if byte == UInt8(ascii: "%"), index != utf8.endIndex {
                    let second = utf8.index(after: index)
                    if second != utf8.endIndex, let high = hexValue(utf8[index]), let low = hexValue(utf8[second]) {
                        out[count] = high << 4 | low
                        count += 1
                        index = utf8.index(after: second)
                        continue
                    }
                }
                out[count] = plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                count += 1
            }
            return count
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Splits a raw query (`a=1&b=x+y&a=%2F`) into decoded items, in order. Empty pieces are skipped;
    /// a piece without `=` has an empty value.
    static func queryItems(_ rawQuery: String) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        let utf8 = rawQuery.utf8
        var start = utf8.startIndex
        while start != utf8.endIndex {
            let end = utf8[start...].firstIndex(of: UInt8(ascii: "&")) ?? utf8.endIndex
            if start != end {
                let piece = rawQuery[start..<end]
                if let equals = piece.utf8.firstIndex(of: UInt8(ascii: "=")) {
                    items.append((decode(piece[..<equals], plusAsSpace: true),
                                  decode(piece[piece.utf8.index(after: equals)...], plusAsSpace: true)))
                } else {
                    items.append((decode(piece, plusAsSpace: true), ""))
                }
            }
            start = end == utf8.endIndex ? end : utf8.index(after: end)
        }
        return items
    }
}
