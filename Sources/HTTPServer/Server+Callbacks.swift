import CMicroHTTPD
import CMicroHTTPDShim
import Glibc
import Observability

// The libmicrohttpd callbacks. They are plain functions (never closures written in `main.swift`, which Swift 6
// would infer `@MainActor` and crash on a worker thread: docs/field-notes.md §2) and reach Swift state only through
// their `cls` / `con_cls` pointers.

typealias URILogCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer?
typealias UnescapeCallback = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutablePointer<CChar>?) -> Int

enum MHDCallbacks {
    /// Function addresses for `MHD_OptionItem.value` ("the first argument must be cast to intptr_t").
    static var uriLogAddress: Int {
        let function: URILogCallback = mhdURILog
        return unsafeBitCast(function, to: Int.self)
    }
    static var requestCompletedAddress: Int {
        let function: MHD_RequestCompletedCallback = mhdRequestCompleted
        return unsafeBitCast(function, to: Int.self)
    }
    static var keepEscapesAddress: Int {
        let function: UnescapeCallback = mhdKeepEscapes
        return unsafeBitCast(function, to: Int.self)
    }
}

/// `MHD_OPTION_URI_LOG_CALLBACK`: "called before parsing the URI [...] the return value will be passed as
/// (`*con_cls`) in calls to the MHD_AccessHandlerCallback". The only place the raw request target, query
/// included, is available; the per-request state starts here.
func mhdURILog(_ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    guard let cls else { return nil }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    context.requestStarted()
    let state = RequestState(uri: uri)
    if state.rawQuery != nil, let uri, let question = strchr(uri, Int32(UInt8(ascii: "?"))) {
        // MHD goes on to split the query into records in the connection's memory pool, and 0.9.75 loses the 431 it
        // queues when they do not fit (a few hundred parameters): nothing is sent and the request never completes.
        // The server splits the query itself (`rawQuery`), so MHD is handed an empty one: the byte after the `?`,
        // in MHD's own buffer, becomes the end of its string (the bytes were measured and copied just above).
        UnsafeMutablePointer(mutating: question + 1).pointee = 0
    }
    state.measuredBeforeParsing = true
    state.connection = ConnectionRecord.entering(.headers, on: connection)
    return Unmanaged.passRetained(state).toOpaque()
}

/// `MHD_OPTION_UNESCAPE_CALLBACK`: leaves the URL untouched (returns its length), so `url` and query values stay
/// raw; `Request` decodes them itself ("must not lengthen s").
func mhdKeepEscapes(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ string: UnsafeMutablePointer<CChar>?) -> Int {
    guard let string else { return 0 }
    return strlen(string)
}

/// `MHD_OPTION_NOTIFY_COMPLETED`: the request is over (sent, failed or timed out): release its state.
func mhdRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ code: MHD_RequestTerminationCode
) {
    guard let conCls, let raw = conCls.pointee else { return }
    let state = Unmanaged<RequestState>.fromOpaque(raw)
    state._withUnsafeGuaranteedRef { $0.enter(.idle) }
    state.release()
    conCls.pointee = nil
    if let cls {
        Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue().requestCompleted()
    }
}

/// Collects request headers and checks each for a NUL (`MHD_get_connection_values_n` iterator: it gives lengths).
private func mhdCollectHeader(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    state.head.add(name: key, nameLength: keySize, value: value, valueLength: valueSize)
    let name = key.withMemoryRebound(to: UInt8.self, capacity: keySize) {
        String(decoding: UnsafeBufferPointer(start: $0, count: keySize), as: UTF8.self)
    }
    let text =
        value.map { value in
            value.withMemoryRebound(to: UInt8.self, capacity: valueSize) {
                String(decoding: UnsafeBufferPointer(start: $0, count: valueSize), as: UTF8.self)
            }
        } ?? ""
    state.headers.append((name: name, value: text))
    return .YES
}

/// The access handler. MHD calls it (1) once the headers are in, (2) for each chunk of body with
/// `*upload_data_size != 0`, (3) once more with `*upload_data_size == 0`. Queueing the response before the
/// final call disables keep-alive in 0.9.75 (docs/field-notes.md §3), so that only happens for rejections.
func mhdAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls, let uploadDataSize else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let state: RequestState
    if let raw = conCls.pointee {
        state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
    } else {
        // Only if the URI log callback did not run; keep the same accounting.
        context.requestStarted()
        state = RequestState(uri: url)
        state.connection = ConnectionRecord.entering(.headers, on: connection)
        conCls.pointee = Unmanaged.passRetained(state).toOpaque()
    }
    let methodName = method.map { String(cString: $0) } ?? "GET"
    if !state.sawHeaders {
        return headersArrived(
            state: state, connection: connection, context: context, method: method, methodName: methodName,
            url: url, version: version)
    }
    if uploadDataSize.pointee != 0 {
        return bodyChunk(state: state, uploadData: uploadData, uploadDataSize: uploadDataSize)
    }
    return lastCall(state: state, connection: connection, context: context, methodName: methodName)
}

/// The first call, once the headers are in: the head parsed and checked against the limits and the framing rules,
/// and a request without a body marked as processing. `.YES` to go on, or a rejection queued.
@inline(__always)
private func headersArrived(
    state: RequestState, connection: OpaquePointer, context: ServerContext, method: UnsafePointer<CChar>?,
    methodName: String, url: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?
) -> MHD_Result {
    let limits = context.configuration
    state.sawHeaders = true
    state.countBody(0)
    state.enter(.body)
    state.headers.reserveCapacity(16)
    state.head = RequestHead(
        method: method, target: url, targetLength: state.measuredBeforeParsing ? state.uriLength : nil, version: version)
    _ = MHD_get_connection_values_n(connection, .HEADER_KIND, mhdCollectHeader, Unmanaged.passUnretained(state).toOpaque())
    state.head.finish(method: method, headLength: linkd_mhd_request_header_size(connection))
    if let flaw = state.head.flaw {
        return reject(.badRequest(detail: flaw), state: state, method: methodName, connection: connection, context: context)
    }
    if state.uriLength > limits.maxURIBytes {
        return reject(.uriTooLong, state: state, method: methodName, connection: connection, context: context)
    }
    state.maxBodyBytes = limits.maxBodyBytes(method: methodName, path: state.target)
    let headerBytes = state.headers.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 }
    if headerBytes > limits.maxHeaderBytes {
        return reject(.headersTooLarge, state: state, method: methodName, connection: connection, context: context)
    }
    if let lengthIndex = state.headers.firstIndex(where: { HTTPHeaders.equal($0.0, "Content-Length") }) {
        // MHD frames the body by the first Content-Length, or by Transfer-Encoding when both are sent; another
        // hop may pick the other one (request smuggling, RFC 9112 §6.3): a message framed two ways is refused.
        if state.headers[(lengthIndex + 1)...].contains(where: { HTTPHeaders.equal($0.0, "Content-Length") }) {
            return reject(
                .badRequest(detail: "Content-Length is given more than once."), state: state, method: methodName,
                connection: connection, context: context)
        }
        if state.headers.contains(where: { HTTPHeaders.equal($0.0, "Transfer-Encoding") }) {
            return reject(
                .badRequest(detail: "Content-Length and Transfer-Encoding are both given."), state: state,
                method: methodName, connection: connection, context: context)
        }
        if Int(state.headers[lengthIndex].1.trimmingASCIIWhitespace()).map({ $0 > state.maxBodyBytes }) ?? false {
            return reject(
                .payloadTooLarge.with(detail: "The body is larger than this request accepts (\(state.maxBodyBytes) bytes)."), state: state,
                method: methodName, connection: connection, context: context)
        }
    } else if state.headers.contains(where: { HTTPHeaders.equal($0.0, "Transfer-Encoding") }) {
        if let flaw = TransferEncoding.flaw(
            state.headers.filter { HTTPHeaders.equal($0.0, "Transfer-Encoding") }.map(\.1),
            isHTTP10: version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false)
        {
            return reject(.badRequest(detail: flaw), state: state, method: methodName, connection: connection, context: context)
        }
    } else {
        // No body follows (neither Content-Length nor Transfer-Encoding): the request is not one of the bodies
        // the `ConnectionGuard` may close to make room while MHD moves on to the last call.
        state.enter(.processing)
    }
    return .YES
}

/// A chunk of body: kept up to the route's limit, then counted and discarded so the 413 is sent in order.
@inline(__always)
private func bodyChunk(state: RequestState, uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>) -> MHD_Result {
    let count = uploadDataSize.pointee
    state.countBody(count)
    if !state.bodyTooLarge, let uploadData {
        if state.body.count + count > state.maxBodyBytes {
            state.bodyTooLarge = true // keep reading (and discarding) so the 413 can be sent in order
            state.body = []
        } else {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
                state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
            }
        }
    }
    uploadDataSize.pointee = 0
    return .YES
}

/// The last call: the request made and answered (on this worker, or handed off and this connection suspended),
/// or the answer of a resumed handed-off request queued.
@inline(__always)
private func lastCall(state: RequestState, connection: OpaquePointer, context: ServerContext, methodName: String) -> MHD_Result {
    if state.responded {
        // Called again after a handed-off request resumed its connection: queue the answer it made.
        guard let handedOff = state.handedOff, let response = handedOff.take() else { return .YES }
        state.handedOff = nil
        return queue(response, method: handedOff.method, connection: connection, context: context)
    }
    if state.bodyTooLarge {
        return reject(
            .payloadTooLarge.with(detail: "The body is larger than this request accepts (\(state.maxBodyBytes) bytes)."), state: state,
            method: methodName, connection: connection, context: context)
    }
    state.responded = true
    state.enter(.processing)
    var request = makeRequest(state: state, method: methodName, connection: connection, requestIDs: context.requestIDs)
    if let trusted = context.trustedProxies { forward(&request, connection: connection, trusted: trusted) }
    state.body = []
    guard let handoff = context.handoff else {
        return queue(context.responder.respond(to: request), method: request.method, connection: connection, context: context)
    }
    handoff.beginRequest()
    let response = context.responder.respond(to: request)
    guard handoff.takeAsk() else { return queue(response, method: request.method, connection: connection, context: context) }
    // The request asked to wait: its answer is discarded and it runs again on a handoff thread, this connection
    // suspended meanwhile ("the only safe way to call this function is to call it from the
    // MHD_AccessHandlerCallback", microhttpd.h), so this worker goes on serving its other connections.
    let handedOff = HandedOffRequest(connection: connection, method: request.method)
    state.handedOff = handedOff
    MHD_suspend_connection(connection)
    let responder = context.responder
    let asked = request
    handoff.submit {
        handedOff.finish(responder.respond(to: asked))
    }
    return .YES
}

private func makeRequest(state: RequestState, method: String, connection: OpaquePointer, requestIDs: RequestIDGenerator) -> Request {
    var path = state.target
    // Absolute-form targets (`GET http://host/path`), which servers must accept (RFC 9112 §3.2.2): keep the path.
    if path.utf8.first != UInt8(ascii: "/"), let colon = path.firstIndex(of: ":"), path[colon...].hasPrefix("://") {
        let authority = path[path.index(colon, offsetBy: 3)...]
        path = authority.firstIndex(of: "/").map { String(path[$0...]) } ?? "/"
    }
    let remote = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String in
        guard let base = buffer.baseAddress, linkd_mhd_client_address(connection, base, buffer.count) == 0 else { return "" }
        return String(cString: base)
    }
    let offered = state.headers.first(where: { HTTPHeaders.equal($0.0, "X-Request-ID") })?.1
    let requestID = offered.flatMap { RequestID.isSane($0) ? RequestID.Value.text($0) : nil } ?? requestIDs.next()
    return Request(
        method: HTTPMethod(rawValue: method), splitPath: path, rawQuery: state.rawQuery, headers: HTTPHeaders(fields: state.headers),
        body: state.body, remoteAddress: remote, checkedRequestID: requestID)
}

/// Takes the client and scheme from the forwarding headers when the socket's peer is a trusted proxy; any
/// other peer's forwarding headers are ignored.
private func forward(_ request: inout Request, connection: OpaquePointer, trusted: TrustedProxies) {
    var peer = IPAddress()
    let known = withUnsafeMutableBytes(of: &peer.bytes) { bytes in
        linkd_mhd_client_address_bytes(connection, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 0
    }
    guard known, trusted.contains(peer), let forwarding = trusted.forwarding(request.headers) else { return }
    request.remoteAddress = forwarding.client
    if let scheme = forwarding.scheme { request.scheme = scheme }
}

/// Answers a request the server refuses before routing (413, 414, 431) with problem+json and the request id.
private func reject(
    _ problem: Problem, state: RequestState, method: String, connection: OpaquePointer, context: ServerContext
) -> MHD_Result {
    state.responded = true
    state.enter(.processing)
    let requestID = RequestID.accept(state.headers.first(where: { HTTPHeaders.equal($0.0, "X-Request-ID") })?.1)
    var problem = problem
    problem.extensions["requestId"] = requestID
    var response = Response.problem(problem)
    response.headers.add("X-Request-ID", requestID)
    response.headers.add("Connection", "close") // the rest of this request is not read: the connection cannot be reused
    context.logger.info(
        "request rejected",
        metadata: [
            "http.method": method, "http.status": String(problem.status), "request.id": requestID,
            "http.path": String(state.rawURI.prefix(200)),
        ])
    if let metrics = context.metrics {
        RouteMetrics.requests(route: "rejected", method: HTTPMethod(rawValue: method), status: problem.status, in: metrics).increment()
    }
    return queue(response, method: HTTPMethod(rawValue: method), connection: connection, context: context)
}

private func queue(_ response: Response, method: HTTPMethod, connection: OpaquePointer, context: ServerContext) -> MHD_Result {
    if let prepared = response.prepared?.handle, !context.draining.load(ordering: .relaxed) {
        return linkd_mhd_queue_response(connection, UInt32(clamping: response.status), prepared)
    }
    guard let mhdResponse = makeMHDResponse(response, method: method, context: context) else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    return linkd_mhd_queue_response(connection, UInt32(clamping: response.status), mhdResponse)
}

/// MHD's response for `response` (the caller destroys it after queueing): a header MHD refuses is dropped rather
/// than sent broken, `Connection: close` added while draining.
func makeMHDResponse(_ response: Response, method: HTTPMethod, context: ServerContext) -> OpaquePointer? {
    var headLength: UInt64?
    if method == .HEAD, response.body.isEmpty, let length = response.headers["Content-Length"].flatMap({ UInt64($0) }), length > 0 {
        headLength = length
    }
    let made = makeMHDResponse(headers: response.headers, body: response.body, headLength: headLength) { name in
        context.logger.warning("response header dropped", metadata: ["http.header": name])
        return true
    }
    guard let mhdResponse = made else { return nil }
    if context.draining.load(ordering: .relaxed) && response.headers["Connection"] == nil {
        _ = MHD_add_response_header(mhdResponse, "Connection", "close")
    }
    return mhdResponse
}
