/// One outbound GET: where, with which extra headers, and the limits of this one request (each nil takes the
/// client's setting).
public struct OutboundRequest: Sendable {
    /// An absolute `http` or `https` URL; `OutboundTargets` decides whether it may be fetched at all.
    public var url: String
    /// Extra request headers (`Accept`), as name and value; the client sends its own `User-Agent`.
    public var headers: [(name: String, value: String)]
    /// The whole transfer's limit, connection included.
    public var timeout: Duration?
    /// The largest body read; a larger one fails the request as `tooLarge`.
    public var maxBodyBytes: Int?

    public init(url: String, headers: [(name: String, value: String)] = [], timeout: Duration? = nil, maxBodyBytes: Int? = nil) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
    }
}
