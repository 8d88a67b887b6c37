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
        Percent.isUnreserved(byte) || "!$&'()*+,;=:@".utf8.contains(byte)
    }

    /// RFC 3986 query characters (§3.4): `pchar`, `/` and `?`.
    static func isQueryByte(_ byte: UInt8) -> Bool {
        isSegmentByte(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?")
    }
}
