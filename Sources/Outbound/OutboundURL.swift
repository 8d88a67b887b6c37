import CCurl

/// An absolute `http` or `https` URL as libcurl reads it (its URL API, `curl_url`), so that what
/// `OutboundTargets` allows is exactly what the transfer connects to: the same parser decides the scheme, host,
/// port and path for both, and the transfer is given `text`, libcurl's own normalised form.
public struct OutboundURL: Sendable, Equatable, CustomStringConvertible {
    /// `http` or `https`, lower-case.
    public let scheme: String
    /// The host, lower-case, as written (an IPv6 address in brackets).
    public let host: String
    /// The port: the one written, else the scheme's.
    public let port: Int
    /// The path with dot segments removed (`/a/v1/../b` is `/b`); `/` when empty.
    public let path: String
    /// The query without its `?`; nil when the URL has none.
    public let query: String?
    /// Whether the URL names a user or password (`https://user@host/`).
    public let hasUserInfo: Bool
    /// Whether the URL has a `#fragment`.
    public let hasFragment: Bool
    /// The whole URL as libcurl normalised it.
    public let text: String

    public var description: String { text }

    /// Reads `text`; nil when libcurl does not take it as an absolute http or https URL (another scheme, a
    /// relative reference, a blank or control character (NUL included), a bad port).
    public init?(_ text: String) {
        // A C string ends at a NUL: "https://host/.well-known/\0…" would be read as less than it is.
        guard !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return nil }
        _ = Curl.initialized
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, text, 0) == CURLUE_OK else { return nil }
        func part(_ which: CURLUPart, _ flags: UInt32 = 0) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, flags) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let scheme = part(CURLUPART_SCHEME)?.lowercased(), scheme == "http" || scheme == "https",
            let host = part(CURLUPART_HOST)?.lowercased(), !host.isEmpty,
            let port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT)).flatMap({ Int($0) }),
            let normalized = part(CURLUPART_URL)
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port
        let path = part(CURLUPART_PATH) ?? "/"
        self.path = path.isEmpty ? "/" : path
        self.query = part(CURLUPART_QUERY)
        self.hasUserInfo = part(CURLUPART_USER) != nil || part(CURLUPART_PASSWORD) != nil
        self.hasFragment = part(CURLUPART_FRAGMENT) != nil
        self.text = normalized
    }

    /// Whether both name the same server: scheme, host and port.
    func hasOrigin(of other: OutboundURL) -> Bool {
        scheme == other.scheme && host == other.host && port == other.port
    }
}
