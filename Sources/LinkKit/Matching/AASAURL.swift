import ByteText

/// A URL split per RFC 3986 §3 into the parts AASA matching looks at, without Foundation's normalisation.
///
/// Raw non-ASCII characters, spaces and control characters are first percent-encoded as UTF-8 with upper-case hex
/// (what a browser sends; docs/aasa-semantics.md §1, case `pe-11`); existing escapes are kept exactly as written, since
/// their hex case is significant when matching encoded (§6).
public struct AASAURL: Sendable, Hashable {
    /// The scheme, lower-cased (`https`).
    public let scheme: String
    /// The host, lower-cased, without a trailing dot, brackets kept for IP literals; empty when there is no authority
    /// (always for a custom-scheme link).
    public let host: String
    /// The port, if written.
    public let port: Int?
    /// Whether the authority carries user information (`https://user:password@host/`), which is not part of the host.
    public let hasUserInfo: Bool
    /// The raw (encoded) path; may be empty.
    public let path: String
    /// The raw query after `?`, or nil when there is no `?`.
    public let query: String?
    /// The raw fragment after `#`, or nil when there is no `#`.
    public let fragment: String?

    /// Splits `string` into scheme, authority, path, query and fragment.
    ///
    /// A URL of any other scheme than http(s) is a custom-scheme link (`widgets://widget/42?tab=reviews`): its
    /// "authority" is the first path segment, as apps read such links, so `widgets://widget/42`,
    /// `widgets:///widget/42` and `widgets:widget/42` all have the path `/widget/42` and no host (docs/LINKS.md).
    /// - Parameter string: an absolute URL such as `https://example.com/a?b#c`.
    /// - Throws: `LinkKitError` `.invalidURL` when there is no scheme, an http(s) URL has no `//authority`, or the
    ///   port is not a number.
    public init(_ string: String) throws(LinkKitError) {
        // Split on UTF-8 bytes: every delimiter of RFC 3986 is ASCII, and Character processing costs microseconds.
        let bytes = Array(string.utf8)
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        // A part of printable ASCII (every URL a browser sends) is its text as it is: nothing to encode.
        func encodedText(_ range: Range<Int>) -> String {
            bytes[range].allSatisfy(Percent.isPrintableASCII) ? text(range) : Self.encodeRawBytes(text(range))
        }
        func isSchemePunctuation(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        func isSchemeByte(_ byte: UInt8) -> Bool {
            TeamID.isUpperAlphanumeric(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, bytes[..<colon].allSatisfy(isSchemeByte),
            !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[0]), !isSchemePunctuation(bytes[0])
        else {
            throw LinkKitError(.invalidURL, "'\(string)' is not an absolute URL: it needs a scheme such as https:")
        }
        scheme = ASCII.lowercasedText(bytes[..<colon])
        let slashes = bytes.count >= colon + 3 && bytes[colon + 1] == UInt8(ascii: "/") && bytes[colon + 2] == UInt8(ascii: "/")
        let authorityStart = slashes ? colon + 3 : colon + 1
        var authorityEnd = authorityStart
        if scheme == "https" || scheme == "http" {
            guard slashes else { throw LinkKitError(.invalidURL, "'\(string)' has no host: expected \(scheme)://host/...") }
            while authorityEnd < bytes.count, bytes[authorityEnd] != UInt8(ascii: "/"), bytes[authorityEnd] != UInt8(ascii: "?"),
                bytes[authorityEnd] != UInt8(ascii: "#")
            {
                authorityEnd += 1
            }
        }
        var hostStart = authorityStart
        if let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) { hostStart = at + 1 }
        hasUserInfo = hostStart > authorityStart
        var hostEnd = authorityEnd
        var port: Int?
        if let portColon = bytes[hostStart..<authorityEnd].lastIndex(of: UInt8(ascii: ":")),
            !bytes[portColon..<authorityEnd].contains(UInt8(ascii: "]"))
        {
            hostEnd = portColon
            let digits = text(portColon + 1..<authorityEnd)
            if !digits.isEmpty {
                guard digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let value = Int(digits),
                    value <= 65535
                else {
                    throw LinkKitError(.invalidURL, "'\(string)' has an invalid port '\(digits)'")
                }
                port = value
            }
        }
        if hostEnd > hostStart, bytes[hostEnd - 1] == UInt8(ascii: ".") { hostEnd -= 1 }
        var host = ASCII.lowercasedText(bytes[hostStart..<hostEnd])
        if bytes[hostStart..<hostEnd].contains(where: { $0 >= 0x80 }) {
            // An internationalised host is compared in its punycode form, as the domain is stored.
            host = host.lowercased() // beyond ASCII too (`Ü` → `ü`)
            host = (try? Hostname(host))?.rawValue ?? Self.encodeRawBytes(host)
        }
        self.host = host
        self.port = port
        var end = bytes.count
        if let hash = bytes[authorityEnd...].firstIndex(of: UInt8(ascii: "#")) {
            fragment = encodedText(hash + 1..<end)
            end = hash
        } else {
            fragment = nil
        }
        if let mark = bytes[authorityEnd..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = encodedText(mark + 1..<end)
            end = mark
        } else {
            query = nil
        }
        var path = encodedText(authorityEnd..<end)
        // A custom-scheme link's first segment (its "authority") is part of its path.
        if authorityEnd == authorityStart, !isWebScheme(scheme), let first = path.utf8.first, first != UInt8(ascii: "/") {
            path = "/" + path
        }
        self.path = path
    }

    /// The URL of a request for `path` (raw, as received) with `query` on `host` (lower-case, as `Request.host`
    /// gives it): the parts a link domain's request already has, taken as they are instead of written into a
    /// URL string and split again.
    public init(https host: String, path: String, query: String?) {
        self.init(
            scheme: "https", host: host, port: nil, hasUserInfo: false, path: Self.encodeRawBytes(path),
            query: query.map(Self.encodeRawBytes), fragment: nil)
    }

    private init(scheme: String, host: String, port: Int?, hasUserInfo: Bool, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.hasUserInfo = hasUserInfo
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Whether this is an http(s) URL (a possible universal link), not a custom-scheme link.
    public var isWeb: Bool { isWebScheme(scheme) }

    /// The same path, query and fragment as an `https` URL on `host`: what a custom-scheme link means on the
    /// app's link domain (docs/LINKS.md).
    public func universal(on host: String) -> AASAURL {
        AASAURL(scheme: "https", host: host, port: nil, hasUserInfo: false, path: path, query: query, fragment: fragment)
    }

    /// The URL written out (`scheme://host[:port]path[?query][#fragment]`; a custom-scheme link as
    /// `scheme://path-without-its-first-slash…`), with the encoding kept as split.
    public var text: String {
        guard isWeb else { return Self.customSchemeText(scheme: scheme, path: path, query: query, fragment: fragment) }
        var out = scheme + "://" + host
        if let port { out += ":" + String(port) }
        out += path
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    /// The custom-scheme link of a path, query and fragment: its first path segment written as the authority
    /// (`widgets://widget/42?tab=reviews` for `/widget/42`, `tab=reviews`).
    public static func customSchemeText(scheme: String, path: String, query: String?, fragment: String?) -> String {
        var out = scheme + "://"
        out += path.utf8.first == UInt8(ascii: "/") ? path.dropFirst() : path[...]
        if let query { out += "?" + query }
        if let fragment { out += "#" + fragment }
        return out
    }

    /// Appends the `https` URL of this path, query and fragment on `host` (`universal(on: host).text`) as UTF-8.
    public func appendUniversalText(on host: String, to out: inout [UInt8]) {
        out.append(contentsOf: "https://".utf8)
        out.append(contentsOf: host.utf8)
        out.append(contentsOf: path.utf8)
        appendQueryAndFragment(to: &out)
    }

    /// Appends `customSchemeText(scheme:path:query:fragment:)` of this path, query and fragment as UTF-8.
    public func appendCustomSchemeText(scheme: String, to out: inout [UInt8]) {
        out.append(contentsOf: scheme.utf8)
        out.append(contentsOf: "://".utf8)
        out.append(contentsOf: path.utf8.first == UInt8(ascii: "/") ? path.utf8.dropFirst() : path.utf8[...])
        appendQueryAndFragment(to: &out)
    }

    /// Appends `?query` and `#fragment` where there are any, the tail of both link forms.
    private func appendQueryAndFragment(to out: inout [UInt8]) {
        if let query {
            out.append(UInt8(ascii: "?"))
            out.append(contentsOf: query.utf8)
        }
        if let fragment {
            out.append(UInt8(ascii: "#"))
            out.append(contentsOf: fragment.utf8)
        }
    }

    /// `string` with every byte outside printable ASCII percent-encoded (`é` → `%C3%A9`, space → `%20`).
    static func encodeRawBytes(_ string: String) -> String {
        Percent.encoded(string, keeping: Percent.isPrintableASCII)
    }
}

/// Whether `scheme` (lower-case) is one of the web's: universal links are http(s) links; any other scheme is a
/// custom-scheme link.
func isWebScheme(_ scheme: String) -> Bool { scheme == "https" || scheme == "http" }
