/// What Google's Digital Asset Links parser accepts as a relation string and as a web target's `site`, so that
/// the lint calls malformed what Google drops as malformed content (docs/ANDROID.md "assetlinks.json as Google
/// parses it"). Each check answers nil for a well-formed value, else a sentence saying what is wrong.
public enum AssetLinksSyntax: Sendable {
    /// A relation is `kind/detail`: exactly one `/`, each side a non-empty run of lower-case letters, digits, `_`
    /// and `.` (`delegate_permission/common.handle_all_urls`). No wildcard, no space, no upper case.
    public static func relationProblem(_ relation: String) -> String? {
        let parts = relation.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            return "relation '\(relation.prefix(100))' is not of the form kind/detail (one '/'), such as '\(AssetLinksFile.handleAllURLs)'"
        }
        if !isRelationPart(parts[0]) {
            return
                "the kind '\(parts[0].prefix(100))' of relation '\(relation.prefix(100))' must be lower-case letters, digits, '_' and '.'"
        }
        if !isRelationPart(parts[1]) {
            return
                "the detail '\(parts[1].prefix(100))' of relation '\(relation.prefix(100))' must be lower-case letters, digits, '_' and '.' (no wildcard, no space)"
        }
        return nil
    }

    private static func isRelationPart(_ part: Substring) -> Bool {
        !part.isEmpty
            && part.utf8.allSatisfy {
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
            }
    }

    /// A web target's `site` is an origin: `http` or `https` (any case), `://`, a host name (a trailing dot is
    /// allowed), an optional port 1–65535, and nothing else: no login, no path (not even `/`), no query, no fragment.
    public static func siteProblem(_ site: String) -> String? {
        let quoted = "'\(site.prefix(200))'"
        guard let separator = site.range(of: "://") else {
            return "site \(quoted) is not a URL: it needs a scheme, such as https://example.com"
        }
        let scheme = site[..<separator.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" else { return "site \(quoted) is a non-HTTP URL: it must be https://host" }
        let rest = site[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if authority.contains("@") { return "site \(quoted) carries login information (user@), which a site may not" }
        var host = authority[...]
        if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            let port = authority[authority.index(after: colon)...]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(\.isASCIIDigit), let number = Int(port), (1...65535).contains(number)
            else {
                return "site \(quoted) is not a valid URL: the port '\(port.prefix(20))' is not a number from 1 to 65535"
            }
        }
        let name = host.hasSuffix(".") ? host.dropLast() : host
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty,
            labels.allSatisfy({ label in
                !label.isEmpty
                    && label.utf8.allSatisfy { (0x61...0x7A).contains($0 | 0x20) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
            })
        else {
            return "site \(quoted) is not a valid URL: '\(host.prefix(100))' is not a host name"
        }
        switch rest[authorityEnd...].first {
        case "/"?: return "site \(quoted) cannot contain a path, not even '/': a site is https://host"
        case "?"?: return "site \(quoted) cannot contain query parameters"
        case "#"?: return "site \(quoted) cannot contain fragment identifiers"
        default: return nil
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
