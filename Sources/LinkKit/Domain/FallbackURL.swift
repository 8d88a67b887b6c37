import ByteText

/// The web fallback a click is sent to when its domain carries the path to it (`carryPathToFallback`): the
/// clicked path and query joined to the fallback URL so that the result is one well-formed URL on the fallback's
/// host, whatever the request held (docs/LANDING.md, "The path carried to the web fallback").
///
/// - The path is normalised: read segment by segment (percent-decoded), empty, `.` and `..` segments resolved
///   within the carried path (never above it into the fallback's own path), then written again with every byte
///   outside RFC 3986's `pchar` percent-encoded: a raw `\` (which browsers read as `/`) is `%5C`, an encoded slash
///   stays `%2F`, non-ASCII is UTF-8 `%XX`.
/// - It is appended to the fallback's path (`https://www.example.com/base` + `/a` → `…/base/a`), before the
///   fallback's query and fragment, never inside them.
/// - The query is the fallback's items, as configured, then the request's, each kept as written but for the bytes
///   RFC 3986 has no place for (encoded), without the items whose name the fallback already sets: the operator's
///   configured values win over a link's (`?x=1` + `?x=2&y=3` → `?x=1&y=3`).
/// - The fallback's fragment stays last.
public enum FallbackURL {
    /// `base` with the request's `path` and `query` carried into it as described above.
    /// - Parameters:
    ///   - path: the request's path as it came (percent-encoded or not), starting with `/`.
    ///   - query: the request's query without `?`, as it came; nil when there was none.
    ///   - base: the domain's web fallback (a validated absolute https URL).
    public static func carrying(path: String, query: String?, to base: String) -> String {
        // ASCII (every path and query a resolve or a click carries, every validated fallback) is joined as bytes, in
        // one buffer; text beyond ASCII is read by characters, as it always was.
        let joined = path.utf8.withContiguousStorageIfAvailable { path in
            base.utf8.withContiguousStorageIfAvailable { base in
                (query ?? "").utf8.withContiguousStorageIfAvailable { request in
                    isASCII(path) && isASCII(base) && isASCII(request)
                        ? joinedASCII(path: path, query: query == nil ? nil : request, base: base) : nil
                } ?? nil
            } ?? nil
        }
        return (joined ?? nil) ?? carryingText(path: path, query: query, to: base)
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { $0 < 0x80 }
    }

    /// `carrying` on ASCII bytes, written into one buffer: a segment or query item with nothing to decode or encode is
    /// copied as it is.
    private static func joinedASCII(
        path: UnsafeBufferPointer<UInt8>, query: UnsafeBufferPointer<UInt8>?, base: UnsafeBufferPointer<UInt8>
    )
        -> String
    {
        var out: [UInt8] = []
        out.reserveCapacity(base.count + path.count + (query?.count ?? 0) + 16)
        var end = base.count
        var fragment: Range<Int>?
        if let hash = base.firstIndex(of: UInt8(ascii: "#")) {
            fragment = hash + 1..<end
            end = hash
        }
        var baseQuery: Range<Int>?
        if let mark = base[..<end].firstIndex(of: UInt8(ascii: "?")) {
            baseQuery = mark + 1..<end
            end = mark
        }
        if end > 0, base[end - 1] == UInt8(ascii: "/") { end -= 1 }
        out.append(contentsOf: base[..<end])
        appendNormalizedPath(path, to: &out)
        appendMergedQuery(base: baseQuery.map { UnsafeBufferPointer(rebasing: base[$0]) }, request: query, to: &out)
        if let fragment {
            out.append(UInt8(ascii: "#"))
            out.append(contentsOf: base[fragment])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `normalizedPath` of ASCII bytes, appended.
    private static func appendNormalizedPath(_ path: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let start = out.count
        // Where each kept segment's `/` is, for a `..` to take it back.
        var segments: [Int] = []
        if let slash = path.firstIndex(of: UInt8(ascii: "/")) {
            var segmentStart = slash + 1
            for index in slash + 1...path.count where index == path.count || path[index] == UInt8(ascii: "/") {
                let segment = UnsafeBufferPointer(rebasing: path[segmentStart..<index])
                segmentStart = index + 1
                // Decoded only when it has an escape; else its bytes are what decoding would give.
                let decoded = segment.contains(UInt8(ascii: "%")) ? Percent.decoded(segment) : nil
                let count = decoded?.count ?? segment.count
                let dot = UInt8(ascii: ".")
                func byte(_ index: Int) -> UInt8 { decoded?[index] ?? segment[index] }
                if count == 0 || (count == 1 && byte(0) == dot) { continue }
                if count == 2, byte(0) == dot, byte(1) == dot {
                    if let last = segments.popLast() { out.removeSubrange(last...) }
                    continue
                }
                segments.append(out.count)
                out.append(UInt8(ascii: "/"))
                func append(_ byte: UInt8) {
                    if isSegmentByte(byte) {
                        out.append(byte)
                    } else {
                        out += [UInt8(ascii: "%"), Hex.upperDigit(byte >> 4), Hex.upperDigit(byte & 0x0F)]
                    }
                }
                if let decoded { decoded.forEach(append) } else { segment.forEach(append) }
            }
        }
        if segments.isEmpty {
            out.removeSubrange(start...)
            out.append(UInt8(ascii: "/"))
        } else if path.last == UInt8(ascii: "/") {
            out.append(UInt8(ascii: "/"))
        }
    }

    /// `mergedQuery` of ASCII bytes, appended after a `?` when there is any item.
    private static func appendMergedQuery(base: UnsafeBufferPointer<UInt8>?, request: UnsafeBufferPointer<UInt8>?, to out: inout [UInt8]) {
        func items(_ bytes: UnsafeBufferPointer<UInt8>?) -> [UnsafeBufferPointer<UInt8>] {
            guard let bytes else { return [] }
            return bytes.split(separator: UInt8(ascii: "&")).map { UnsafeBufferPointer(rebasing: $0) }
        }
        func name(_ item: UnsafeBufferPointer<UInt8>) -> String {
            let end = item.firstIndex(of: UInt8(ascii: "=")) ?? item.count
            return Percent.decodedText(UnsafeBufferPointer(rebasing: item[..<end]), plusAsSpace: true)
        }
        let baseItems = items(base)
        let taken = Set(baseItems.map(name))
        var first = true
        for item in baseItems {
            out.append(first ? UInt8(ascii: "?") : UInt8(ascii: "&"))
            first = false
            out.append(contentsOf: item)
        }
        for item in items(request) where taken.isEmpty || !taken.contains(name(item)) {
            out.append(first ? UInt8(ascii: "?") : UInt8(ascii: "&"))
            first = false
            var index = 0
            while index < item.count {
                let byte = item[index]
                if byte == UInt8(ascii: "%"), index + 2 < item.count, Hex.value(item[index + 1]) != nil, Hex.value(item[index + 2]) != nil {
                    out.append(contentsOf: item[index...(index + 2)])
                    index += 3
                    continue
                }
                if isQueryByte(byte) {
                    out.append(byte)
                } else {
                    out += [UInt8(ascii: "%"), Hex.upperDigit(byte >> 4), Hex.upperDigit(byte & 0x0F)]
                }
                index += 1
            }
        }
    }

    /// `carrying` read by characters: for text beyond ASCII.
    static func carryingText(path: String, query: String?, to base: String) -> String {
        var rest = Substring(base)
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var baseQuery: Substring?
        if let mark = rest.firstIndex(of: "?") {
            baseQuery = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        var target = String(rest) + normalizedPath(path)
        let items = mergedQuery(base: baseQuery, request: query)
        if !items.isEmpty { target += "?" + items }
        if let fragment { target += "#" + fragment }
        return target
    }

    /// `path` with its dot and empty segments resolved and each segment encoded again; `/` when nothing is left.
    static func normalizedPath(_ path: String) -> String {
        var segments: [String] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let decoded = Array(raw.utf8).withUnsafeBufferPointer { Percent.decoded($0) }
            switch decoded {
            case []: continue
            case [UInt8(ascii: ".")]: continue
            case [UInt8(ascii: "."), UInt8(ascii: ".")]: _ = segments.popLast()
            default: segments.append(Percent.encoded(bytes: decoded, keeping: isSegmentByte))
            }
        }
        guard !segments.isEmpty else { return "/" }
        let trailing = path.hasSuffix("/") ? "/" : ""
        return "/" + segments.joined(separator: "/") + trailing
    }

    /// The fallback's query items, then the request's whose name the fallback does not set.
    static func mergedQuery(base: Substring?, request: String?) -> String {
        let baseItems = (base ?? "").split(separator: "&")
        let taken = Set(baseItems.map(itemName))
        let requestItems = (request ?? "").split(separator: "&").filter { !taken.contains(itemName($0)) }.map(reencoded)
        return (baseItems.map(String.init) + requestItems).joined(separator: "&")
    }

    /// The decoded name of a query item (`a%20b=1` → `a b`; `+` is a space, as forms write it).
    private static func itemName(_ item: Substring) -> String {
        let name = item.prefix { $0 != "=" }
        return Array(name.utf8).withUnsafeBufferPointer { Percent.decodedText($0, plusAsSpace: true) }
    }

    /// `item` as written, but for a `%` that starts no escape (`%25`) and bytes outside RFC 3986's query (`%XX`).
    private static func reencoded(_ item: Substring) -> String {
        let bytes = Array(item.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, Hex.value(bytes[index + 1]) != nil, Hex.value(bytes[index + 2]) != nil {
                out += bytes[index...(index + 2)]
                index += 3
                continue
            }
            if isQueryByte(byte) { out.append(byte) } else { out += Array(Percent.encoded(bytes: [byte], keeping: { _ in false }).utf8) }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 3986 `pchar` (§3.3): unreserved, sub-delims, `:` and `@`.
    static func isSegmentByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&")...UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default: Percent.isUnreserved(byte)
        }
    }

    /// RFC 3986 query characters (§3.4): `pchar`, `/` and `?`.
    static func isQueryByte(_ byte: UInt8) -> Bool {
        isSegmentByte(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?")
    }
}
