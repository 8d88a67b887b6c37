/// Percent-decoding for paths and query strings (RFC 3986 §2.1). Malformed escapes are kept literally.
enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as a space when `plusAsSpace`); invalid UTF-8 becomes U+FFFD.
    static func decode<S: StringProtocol>(_ text: S, plusAsSpace: Bool) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                if first != utf8.endIndex {
                    let second = utf8.index(after: first)
                    if second != utf8.endIndex, let high = hexValue(utf8[first]), let low = hexValue(utf8[second]) {
                        bytes.append(high << 4 | low)
                        index = utf8.index(after: second)
                        continue
                    }
                }
                bytes.append(byte)
            } else if plusAsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
            index = utf8.index(after: index)
        }
        return String(decoding: bytes, as: UTF8.self)
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
        for piece in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = piece.firstIndex(of: "=") {
                items.append((decode(piece[..<equals], plusAsSpace: true),
                              decode(piece[piece.index(after: equals)...], plusAsSpace: true)))
            } else {
                items.append((decode(piece, plusAsSpace: true), ""))
            }
        }
        return items
    }
}
