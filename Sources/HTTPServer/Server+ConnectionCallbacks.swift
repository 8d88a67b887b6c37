import CMicroHTTPD
import CMicroHTTPDShim
import Glibc
import Observability

// The per-connection callbacks: MHD's connection notifications, which register connections with the
// `ConnectionGuard`, and the shim's hook for the errors MHD answers by itself.

extension MHDCallbacks {
    static var notifyConnectionAddress: Int {
        let function: MHD_NotifyConnectionCallback = mhdConnectionNotified
        return unsafeBitCast(function, to: Int.self)
    }
}

/// `MHD_OPTION_NOTIFY_CONNECTION`: STARTED when a connection is accepted ("the socket_context can be set
/// here"), CLOSED when it is cleaned up, before MHD closes its socket (daemon.c, MHD_cleanup_connections).
func mhdConnectionNotified(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    switch code {
    case .CONNECTION_NOTIFY_STARTED:
        let record = ConnectionRecord(
            descriptor: Int32(linkd_mhd_connection_fd(connection)), context: context,
            errorResponse: mhdErrorResponse)
        record.socketContext.pointee.owner = Unmanaged.passRetained(record).toOpaque()
        socketContext.pointee = UnsafeMutableRawPointer(record.socketContext)
        let refused = context.connections.opened(record) == .refused
        if context.draining.load(ordering: .relaxed), record.descriptor >= 0 {
            // Draining (`Server.shutdown`): a connection accepted now is closed before anything is read, as a
            // quiesced listener would refuse it.
            _ = Glibc.shutdown(record.descriptor, Int32(SHUT_RDWR))
        } else if refused, record.descriptor >= 0 {
            // A fresh connection MHD has not read from or written to yet: the 503 goes out first, whole or not at
            // all (a send that would block is dropped), and the shutdown makes MHD close the connection.
            _ = context.connections.refusal.withUnsafeBytes { bytes in
                send(record.descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            _ = Glibc.shutdown(record.descriptor, Int32(SHUT_RDWR))
        }
    case .CONNECTION_NOTIFY_CLOSED:
        guard let raw = socketContext.pointee else { return }
        let cContext = raw.assumingMemoryBound(to: linkd_mhd_socket_context.self)
        guard let owner = cContext.pointee.owner else { return }
        let record = Unmanaged<ConnectionRecord>.fromOpaque(owner).takeRetainedValue()
        context.connections.closed(record)
        socketContext.pointee = nil
    default:
        break
    }
}

/// The shim's `linkd_mhd_error_response_callback`: MHD is about to answer `status` by itself (see
/// CMicroHTTPDShim/shim-interpose.c); the answer sent instead is the same status as problem+json, with a
/// request id, logged and counted as the `Server`'s own rejections are.
func mhdErrorResponse(
    _ owner: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ status: UInt32,
    _ written: UnsafeMutablePointer<Int32>?
) -> OpaquePointer? {
    guard let owner, let connection else { return nil }
    let record = Unmanaged<ConnectionRecord>.fromOpaque(owner).takeUnretainedValue()
    record.enter(.processing)
    let context = record.context
    var problem = Problem.answeredByHTTPLibrary(status: Int(status), limits: context.configuration)
    let offered = MHD_lookup_connection_value(connection, .HEADER_KIND, "X-Request-ID").map { String(cString: $0) }
    let requestID = RequestID.accept(offered)
    problem.extensions["requestId"] = requestID
    var response = Response.problem(problem)
    response.headers.add("X-Request-ID", requestID)
    response.headers.add("Connection", "close") // MHD closes the connection after its error answers
    context.logger.info(
        "request rejected",
        metadata: [
            "http.status": String(problem.status), "request.id": requestID, "http.rejected_by": "libmicrohttpd",
        ])
    if let metrics = context.metrics {
        RouteMetrics.requests(route: "rejected", method: HTTPMethod(rawValue: "unknown"), status: problem.status, in: metrics).increment()
    }
    // MHD 0.9.75 decides a bad Content-Length once the headers are in (parse_connection_headers) and then goes on
    // as if nothing were queued, writing the answer's head a second time. There it is written here, whole (MHD
    // has written nothing of this request's answer yet, and earlier answers on the connection are complete),
    // and the shim's refusal to queue makes MHD close the connection. Elsewhere the answer goes through MHD.
    if status == 400 || status == 413, let written, record.descriptor >= 0,
        MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") != nil,
        MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") == nil
    {
        let bytes = response.wireBytes
        let sent = bytes.withUnsafeBytes { send(record.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if sent > 0 { // whole, or (never with an empty send buffer) in part: either way the connection closes now
            written.pointee = 1
            return nil
        }
    }
    return makeMHDResponse(response, method: .GET, context: context)
}

extension Problem {
    /// The problem for an error libmicrohttpd decided (it tells only the status): 400 a malformed request line,
    /// header line, `Content-Length` or chunked body; 413 a `Content-Length` or chunk size beyond 64 bits; 414 and
    /// 431 a request line or header section larger than its memory pool; 505 an HTTP major version other than 1.
    static func answeredByHTTPLibrary(status: Int, limits: ServerConfiguration) -> Problem {
        switch status {
        case 400: .badRequest(detail: "The request line, a header line, Content-Length or the chunked body is malformed.")
        case 413:
            .payloadTooLarge.with(
                detail: "Content-Length or a chunk size is larger than the server accepts (\(limits.maxBodyBytes) bytes).")
        case 414: .uriTooLong.with(detail: "The request target is longer than the server accepts (\(limits.maxURIBytes) bytes).")
        case 431: .headersTooLarge.with(detail: "The header section is larger than the server accepts (\(limits.maxHeaderBytes) bytes).")
        case 505: .httpVersionNotSupported
        case 500...: Problem(type: Types.internal, title: Problem.internal.title, status: status)
        default: Problem(type: Types.badRequest, title: Problem.badRequest.title, status: status)
        }
    }
}
