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

    /// Where the items of a raw query are, in order: four numbers an item (its start, the end of its name: its first
    /// `=` or its end, its end, as byte offsets; and 1 when its name is ASCII without escapes, so that it reads as it is
    /// written), found in one pass without decoding anything; empty pieces are skipped, as `QueryString.forEachItem`
    /// skips them. `decodedNUL` is set when an item would decode to text holding a NUL: only the escape `%00` does.
    static func queryBounds(_ rawQuery: String, noticingNUL decodedNUL: inout Bool) -> [Int32] {
        var bounds: [Int32] = []
        if rawQuery.utf8.withContiguousStorageIfAvailable({ scan($0, into: &bounds, noticingNUL: &decodedNUL) }) == nil {
            Array(rawQuery.utf8).withUnsafeBufferPointer { scan($0, into: &bounds, noticingNUL: &decodedNUL) }
        }
        return bounds
    }

    /// `queryBounds(_:noticingNUL:)` over the query's bytes.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, into bounds: inout [Int32], noticingNUL decodedNUL: inout Bool) {
        var separators = 0
        for byte in bytes where byte == UInt8(ascii: "&") { separators += 1 }
        bounds.reserveCapacity(4 * (separators + 1))
        var start = 0
        while start < bytes.count {
            var end = start
            var equals = -1
            var plainName = true
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") {
                let byte = bytes[end]
                if byte == UInt8(ascii: "%") {
                    if end + 2 < bytes.count, bytes[end + 1] == UInt8(ascii: "0"), bytes[end + 2] == UInt8(ascii: "0") { decodedNUL = true }
                    if equals < 0 { plainName = false }
                } else if equals < 0 {
                    if byte == UInt8(ascii: "=") {
                        equals = end
                    } else if byte >= 0x80 || byte == UInt8(ascii: "+") {
                        plainName = false
                    }
                }
                end += 1
            }
            if start != end {
                bounds.append(Int32(start))
                bounds.append(Int32(equals < 0 ? end : equals))
                bounds.append(Int32(end))
                bounds.append(plainName ? 1 : 0)
            }
            start = end + 1
        }
    }

    /// The decoded items at `bounds` (`queryBounds`) of `rawQuery`, in order; a piece without `=` has an empty value.
    static func queryItems(_ rawQuery: String, bounds: [Int32]) -> [(name: String, value: String)] {
        withBytes(of: rawQuery) { bytes in
            stride(from: 0, to: bounds.count, by: 4).map { item in
                let (name, value) = pieces(bytes, bounds, item)
                return (Percent.decodedText(name, plusAsSpace: true), value.map { Percent.decodedText($0, plusAsSpace: true) } ?? "")
            }
        }
    }

    /// The decoded value of the first item of `rawQuery` (at `bounds`) whose decoded name is `name`; nil when none is.
    /// Only that value is decoded: a plain name (ASCII, no escapes) is compared as it is written, by its length first.
    static func firstValue(named name: String, in rawQuery: String, bounds: [Int32]) -> String? {
        let length = name.utf8.count
        // An ASCII name equals a plain one exactly when their bytes do; any other is compared as `String`s are.
        let asciiName = name.utf8.allSatisfy { $0 < 0x80 }
        return withBytes(of: rawQuery) { bytes -> String? in
            for item in stride(from: 0, to: bounds.count, by: 4) {
                let plain = asciiName && bounds[item + 3] == 1
                if plain && Int(bounds[item + 1] - bounds[item]) != length { continue }
                let (raw, value) = pieces(bytes, bounds, item)
                guard plain ? raw.elementsEqual(name.utf8) : Percent.decodedText(raw, plusAsSpace: true) == name else { continue }
                return value.map { Percent.decodedText($0, plusAsSpace: true) } ?? ""
            }
            return nil
        }
    }

    /// The raw name and value (nil without `=`) of the item at `item` in `bounds`.
    private static func pieces(
        _ bytes: UnsafeBufferPointer<UInt8>, _ bounds: [Int32], _ item: Int
    ) -> (name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>?) {
        let (start, equals, end) = (Int(bounds[item]), Int(bounds[item + 1]), Int(bounds[item + 2]))
        return (
            UnsafeBufferPointer(rebasing: bytes[start..<equals]),
            equals < end ? UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]) : nil
        )
    }

    private static func withBytes<T>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        text.utf8.withContiguousStorageIfAvailable(body) ?? Array(text.utf8).withUnsafeBufferPointer(body)
    }
}
