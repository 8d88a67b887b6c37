import CMicroHTTPD

/// A response made once and sent as it is to every request that gets it: libmicrohttpd's response object is
/// built at `init` (headers and body copied into it once) and queued for each request, which MHD allows ("the
/// response object can be extended with header information and then be used any number of times", microhttpd.h;
/// its reference count is locked). Sending one costs no per-request copy of its headers or body: for documents
/// served byte-identical to everyone (the association files).
///
/// A `Response` made from one (`Response(_:)`) carries the same status, headers and body as values, so handlers,
/// middleware and tests read it as any other; changing any of them sends it the ordinary way. What that means for
/// request ids: docs/DESIGN.md, "Request ids".
public final class PreparedResponse: @unchecked Sendable {
    public let status: Int
    /// As given, without `Content-Length` (MHD writes it from the body).
    public let headers: HTTPHeaders
    public let body: [UInt8]
    /// MHD's response, nil when MHD refused one (a header value with CR or LF): then it is sent the ordinary way.
    /// Only read after `init`, and MHD counts its references under its own lock: `@unchecked Sendable`.
    let handle: OpaquePointer?

    public init(status: Int = 200, headers: HTTPHeaders, body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        handle = makeMHDResponse(headers: headers, body: body) { _ in false }
    }

    /// The response `response` describes.
    public convenience init(_ response: Response) {
        self.init(status: response.status, headers: response.headers, body: response.body)
    }

    deinit {
        // Drops this object's reference; requests still sending it keep theirs (MHD frees it after the last).
        if let handle { MHD_destroy_response(handle) }
    }
}
