/// An HTTP response: status, header fields and body bytes.
public struct Response: Sendable {
    /// The status code, e.g. `200`.
    public var status: Int { didSet { prepared = nil } }
    /// Header fields. `Content-Length` is computed by the server from `body` (a `HEAD` answer carries
    /// the `GET` body's length in this header, with an empty body).
    public var headers: HTTPHeaders { didSet { prepared = nil } }
    /// The body bytes.
    public var body: [UInt8] { didSet { prepared = nil } }
    /// The problem this response was made from (`Response.problem(_:)`), so the `Router` can add the request id.
    var problem: Problem?
    /// The prepared response this one was made from, while status, headers and body are still its own.
    private(set) var prepared: PreparedResponse?

    /// Creates a response.
    public init(status: Int = 200, headers: HTTPHeaders = .init(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// `prepared`, sent as it was made (see `PreparedResponse`).
    public init(_ prepared: PreparedResponse) {
        self.init(status: prepared.status, headers: prepared.headers, body: prepared.body)
        self.prepared = prepared
    }

    /// A JSON body with `Content-Type: application/json`.
    public static func json(_ bytes: [UInt8], status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: bytes)
    }

    /// A text body, UTF-8 encoded.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    /// An RFC 9457 problem with `Content-Type: application/problem+json`, the problem's status and its
    /// `Retry-After`, if any.
    public static func problem(_ problem: Problem) -> Response {
        var response = Response(status: problem.status, headers: ["Content-Type": "application/problem+json"], body: problem.jsonBytes)
        if let seconds = problem.retryAfter { response.headers.replaceOrAdd("Retry-After", String(seconds)) }
        response.problem = problem
        return response
    }

    /// An empty response, e.g. `204`.
    public static func empty(status: Int = 204) -> Response {
        Response(status: status)
    }
}
