/// A base URL outbound requests may be made under (`--apple-cdn-url`, `--google-dal-url`): http or https (http
/// for tests and mirrors), without user information, query or fragment.
public struct OutboundBase: Sendable, Equatable, CustomStringConvertible {
    public let url: OutboundURL

    /// nil when `text` is not such a URL.
    public init?(_ text: String) {
        guard let url = OutboundURL(text), !url.hasUserInfo, !url.hasFragment, url.query == nil else { return nil }
        self.url = url
    }

    /// The URL as written back (libcurl's normal form).
    public var description: String { url.text }
}
