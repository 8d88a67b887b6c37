/// A URL split per RFC 3986 §3 into the parts AASA matching looks at, without Foundation's normalisation.
///
/// Raw non-ASCII characters, spaces and control characters are first percent-encoded as UTF-8 with upper-case hex
/// (what a browser sends; AASA-SEMANTICS §1, case `pe-11`); existing escapes are kept exactly as written, since
/// their hex case is significant when matching encoded (§6).
public struct AASAURL: Sendable, Hashable {
    /// The scheme, lower-cased (`https`).
    public let scheme: String
    /// The host, lower-cased, without a trailing dot, brackets kept for IP literals; empty when there is no authority.
    public let host: String
    /// The port, if written.
    public let port: Int?
    /// The raw (encoded) path; may be empty.
    public let path: String
    /// The raw query after `?`, or nil when there is no `?`.
    public let query: String?
    /// The raw fragment after `#`, or nil when there is no `#`.
    public let fragment: String?

    /// Splits `string` into scheme, authority, path, query and fragment.
    /// - Parameter string: an absolute URL such as `https://example.com/a?b#c`.
    /// - Throws: `LinkKitError` `.invalidURL` when there is no scheme or no `//authority`, or the port is not a number.
    public init(_ string: String) throws(LinkKitError) {
        let text = string
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
              text[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
              text[text.startIndex].isLetter
        else {
            throw LinkKitError(.invalidURL, "'\(string)' is not an absolute URL: it needs a scheme such as https:")
        }
        scheme = text[..<colon].lowercased()
        var rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else {
            throw LinkKitError(.invalidURL, "'\(string)' has no host: expected \(scheme)://host/...")
        }
        rest = rest.dropFirst(2)
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var hostPart = authority
        var port: Int?
        if let portColon = authority.lastIndex(of: ":"), !authority[portColon...].contains("]") {
            hostPart = authority[..<portColon]
            let digits = authority[authority.index(after: portColon)...]
            if !digits.isEmpty {
                guard digits.allSatisfy(\.isASCII), let value = Int(digits), value <= 65535 else {
                    throw LinkKitError(.invalidURL, "'\(string)' has an invalid port '\(digits)'")
                }
                port = value
            }
        }
        var host = hostPart.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        if !host.allSatisfy(\.isASCII) {
            // An internationalised host is compared in its punycode form, as the domain is stored.
            host = (try? Hostname(host))?.rawValue ?? Self.encodeRawBytes(host)
        }
        self.host = host
        self.port = port
        if let hash = rest.firstIndex(of: "#") {
            fragment = Self.encodeRawBytes(String(rest[rest.index(after: hash)...]))
            rest = rest[..<hash]
        } else {
            fragment = nil
        }
        if let mark = rest.firstIndex(of: "?") {
            query = Self.encodeRawBytes(String(rest[rest.index(after: mark)...]))
            rest = rest[..<mark]
        } else {
            query = nil
        }
        path = Self.encodeRawBytes(String(rest))
    }

    /// `string` with every byte outside printable ASCII percent-encoded (`é` → `%C3%A9`, space → `%20`).
    static func encodeRawBytes(_ string: String) -> String {
        guard string.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) else { return string }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count * 3)
        for byte in string.utf8 {
            if byte <= 0x20 || byte >= 0x7F {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
