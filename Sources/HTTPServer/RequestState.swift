/// Per-request state across the access-handler calls of one request, referenced by MHD's `*con_cls`:
/// retained when the URI arrives, released in the request-completed callback. MHD handles one connection
/// on one thread at a time, so this class is never touched concurrently.
final class RequestState {
    let rawURI: String
    var sawHeaders = false
    var responded = false
    var body: [UInt8] = []
    var bodyTooLarge = false
    var headers: [(String, String)] = []

    init(rawURI: String) {
        self.rawURI = rawURI
    }
}
