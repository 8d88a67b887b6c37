import CMicroHTTPDShim
import Glibc

/// Per-request state across the access-handler calls of one request, referenced by MHD's `*con_cls`:
/// retained when the URI arrives, released in the request-completed callback. MHD handles one connection
/// on one thread at a time, so this class is never touched concurrently.
final class RequestState {
    /// The request target up to the first `?`, and everything after it (undecoded; nil without a `?`).
    let target: String
    let rawQuery: String?
    /// Bytes of the whole request target.
    let uriLength: Int
    /// Whether `uriLength` was measured by the URI log callback, before MHD cut the query off at its `?`.
    var measuredBeforeParsing = false
    /// The NUL and `Host` checks of the request's head, fed as the headers are collected.
    var head = RequestHead()
    var sawHeaders = false
    var responded = false
    /// Set while the request runs on a handoff thread, its connection suspended; holds the answer once made.
    var handedOff: HandedOffRequest?
    var body: [UInt8] = []
    var bodyTooLarge = false
    /// The largest body this request may have (its route's, else the server's), known once its headers are in.
    var maxBodyBytes = 0
    var headers: [(name: String, value: String)] = []
    /// The socket context of the connection the request came on (its `ConnectionRecord`'s): the connection
    /// outlives its requests (MHD reports a request completed before it cleans its connection up).
    var connection: UnsafeMutablePointer<linkd_mhd_socket_context>?

    /// Splits the NUL-terminated request target at its first `?` with `strchr` (a byte search in C: this runs
    /// for every request).
    init(uri: UnsafePointer<CChar>?) {
        guard let uri else {
            (target, rawQuery, uriLength) = ("/", nil, 1)
            return
        }
        uriLength = strlen(uri) // the bytes as received (decoding may repair invalid UTF-8 into longer text)
        if let question = strchr(uri, Int32(UInt8(ascii: "?"))) {
            let count = uri.distance(to: UnsafePointer(question))
            target = uri.withMemoryRebound(to: UInt8.self, capacity: count) {
                String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
            }
            rawQuery = String(cString: question + 1)
        } else {
            target = String(cString: uri)
            rawQuery = nil
        }
    }

    /// Records on the connection that this request entered `phase` (for the `ConnectionGuard`).
    @inline(__always)
    func enter(_ phase: ConnectionRecord.Phase) {
        if let connection { linkd_mhd_enter_phase(connection, phase.rawValue) }
    }

    /// Records on the connection that `count` more body bytes arrived; 0 starts a new body (for the
    /// `ConnectionGuard`'s minimum rate).
    @inline(__always)
    func countBody(_ count: Int) {
        if let connection { linkd_mhd_count_body_bytes(connection, UInt64(count)) }
    }

    /// The request target for log lines.
    var rawURI: String { rawQuery.map { target + "?" + $0 } ?? target }
}
