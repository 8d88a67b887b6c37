import Observability
import Synchronization

/// What the C callbacks need, reached through MHD's `cls` pointer. Lives as long as the `Server`, which stops
/// the daemon (and so every callback) before releasing it.
final class ServerContext: Sendable {
    let responder: any Responder
    let configuration: ServerConfiguration
    let logger: Logger
    let metrics: MetricsRegistry?
    /// Requests MHD has started (URI seen) and not yet reported completed.
    let inFlight = Atomic<Int>(0)
    /// Set once shutdown begins: responses ask the client to close the connection.
    let draining = Atomic<Bool>(false)

    init(responder: any Responder, configuration: ServerConfiguration, logger: Logger, metrics: MetricsRegistry?) {
        self.responder = responder
        self.metrics = metrics
        self.configuration = configuration
        self.logger = logger
    }
}

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
