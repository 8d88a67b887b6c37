/// What a server answered, whatever the status: a redirect is an answer too (redirects are never followed), with
/// its `Location`.
public struct OutboundResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// The headers a health check reads, each as sent (several fields of one name joined with `, `); nil when
    /// absent.
    public var contentType: String?
    public var location: String?
    public var etag: String?
    public var lastModified: String?
    public var cacheControl: String?
    public var age: String?
    /// The body as received (no content coding is asked for, so none is undone).
    public var body: [UInt8]
    /// Whether `body` is only the first bytes of a longer one (a request with `truncateBody`).
    public var bodyTruncated = false
    /// The URL that was fetched, as libcurl normalised it.
    public var effectiveURL: String
    /// For a redirect, its `Location` made absolute against `effectiveURL`; nil otherwise.
    public var redirectURL: String?
    /// The address and port connected to: shows where a `--check-resolve` override sent the request.
    public var remoteAddress: String
    public var remotePort: Int
    /// How long the request took, connection included.
    public var duration: Duration

    /// Whether the status is a redirect (301, 302, 303, 307, 308).
    public var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) }
}
