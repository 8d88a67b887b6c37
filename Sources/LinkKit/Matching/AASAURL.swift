import ByteText

/// A URL split per RFC 3986 §3 into the parts AASA matching looks at, without Foundation's normalisation.
///
/// Raw non-ASCII characters, spaces and control characters are first percent-encoded as UTF-8 with upper-case hex
/// (what a browser sends; docs/aasa-semantics.md §1, case `pe-11`); existing escapes are kept exactly as written, since
/// their hex case is significant when matching encoded (§6).
public struct AASAURL: Sendable, Hashable {
    /// The scheme, lower-cased (`https`).
    public let scheme: String
    /// The host, lower-cased, without a trailing dot, brackets kept for IP literals; empty when there is no authority.
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
    /// - Parameter string: an absolute URL such as `https://example.com/a?b#c`.
    /// - Throws: `LinkKitError` `.invalidURL` when there is no scheme or no `//authority`, or the port is not a number.
    public init(_ string: String) throws(LinkKitError) {
        // Split on UTF-8 bytes: every delimiter of RFC 3986 is ASCII, and Character processing costs microseconds.
        let bytes = Array(string.utf8)
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func isSchemeByte(_ byte: UInt8) -> Bool {
            TeamID.isUpperAlphanumeric(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, bytes[..<colon].allSatisfy(isSchemeByte),
              !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[0]), !"+-.".utf8.contains(bytes[0])
        else {
            throw LinkKitError(.invalidURL, "'\(string)' is not an absolute URL: it needs a scheme such as https:")
        }
        scheme = ASCII.lowercasedText(bytes[..<colon])
        guard bytes.count >= colon + 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else {
            throw LinkKitError(.invalidURL, "'\(string)' has no host: expected \(scheme)://host/...")
        }
        let authorityStart = colon + 3
        var authorityEnd = authorityStart
        while authorityEnd < bytes.count, !"/?#".utf8.contains(bytes[authorityEnd]) { authorityEnd += 1 }
        var hostStart = authorityStart
        if let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) { hostStart = at + 1 }
        hasUserInfo = hostStart > authorityStart
        var hostEnd = authorityEnd
        var port: Int?
        if let portColon = bytes[hostStart..<authorityEnd].lastIndex(of: UInt8(ascii: ":")),
           !bytes[portColon..<authorityEnd].contains(UInt8(ascii: "]")) {
            hostEnd = portColon
            let digits = text(portColon + 1..<authorityEnd)
            if !digits.isEmpty {
                guard digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let value = Int(digits), value <= 65535 else {
                    throw LinkKitError(.invalidURL, "'\(string)' has an invalid port '\(digits)'")
                }
                port = value
            }
        }
        if hostEnd > hostStart, bytes[hostEnd - 1] == UInt8(ascii: ".") { hostEnd -= 1 }
        var host = ASCII.lowercasedText(bytes[hostStart..<hostEnd])
        if bytes[hostStart..<hostEnd].contains(where: { $0 >= 0x80 }) {
            // An internationalised host is compared in its punycode form, as the domain is stored.
            host = host.lowercased()   // beyond ASCII too (`Ü` → `ü`)
            host = (try? Hostname(host))?.rawValue ?? Self.encodeRawBytes(host)
        }
        self.host = host
        self.port = port
        var end = bytes.count
        if let hash = bytes[authorityEnd...].firstIndex(of: UInt8(ascii: "#")) {
            fragment = Self.encodeRawBytes(text(hash + 1..<end))
            end = hash
        } else {
            fragment = nil
        }
        if let mark = bytes[authorityEnd..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = Self.encodeRawBytes(text(mark + 1..<end))
            end = mark
        } else {
            query = nil
        }
        path = Self.encodeRawBytes(text(authorityEnd..<end))
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
