/// One outbound request: where, which method (GET, or POST with a body), which extra headers, and the limits of
/// this one request (each nil takes the client's setting).
public struct OutboundRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    /// An absolute `http` or `https` URL; `OutboundTargets` or an `AddressPolicy` decides whether it may be
    /// asked at all.
    public var url: String
    public var method: Method
    /// Extra request headers (`Accept`, a webhook's signature), as name and value; the client sends its own
    /// `User-Agent`, and the body's `Content-Type` is `contentType`.
    public var headers: [(name: String, value: String)]
    /// A POST's body, sent as given with its `Content-Length` (nil: empty). A GET has none.
    public var body: [UInt8]?
    /// The body's `Content-Type`; nil sends none.
    public var contentType: String?
    /// The whole transfer's limit, connection included.
    public var timeout: Duration?
    /// The largest response body read.
    public var maxBodyBytes: Int?
    /// What a response body larger than `maxBodyBytes` does: false, the request fails as `tooLarge` (a health
    /// check must read the whole file); true, the transfer stops at the limit and the response is answered with
    /// the first `maxBodyBytes` bytes and `bodyTruncated` set (a webhook's receiver answered, whatever it
    /// wrote: its status is what counts).
    public var truncateBody: Bool

    public init(
        url: String, method: Method = .get, headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil, contentType: String? = nil,
        timeout: Duration? = nil, maxBodyBytes: Int? = nil, truncateBody: Bool = false
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.contentType = contentType
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.truncateBody = truncateBody
    }
}
