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
    var body: [UInt8] = []
    var bodyTooLarge = false
    var headers: [(name: String, value: String)] = []

    /// Splits the NUL-terminated request target at its first `?` with `strchr` (a byte search in C: this runs
    /// for every request).
    init(uri: UnsafePointer<CChar>?) {
        guard let uri else {
            (target, rawQuery, uriLength) = ("/", nil, 1)
            return
        }
        uriLength = strlen(uri)   // the bytes as received (decoding may repair invalid UTF-8 into longer text)
        if let question = strchr(uri, Int32(UInt8(ascii: "?"))) {
            let count = uri.distance(to: UnsafePointer(question))
            target = uri.withMemoryRebound(to: UInt8.self, capacity: count) { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) }
            rawQuery = String(cString: question + 1)
        } else {
            target = String(cString: uri)
            rawQuery = nil
        }
    }

    /// The request target for log lines.
    var rawURI: String { rawQuery.map { target + "?" + $0 } ?? target }
}
