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
    /// Ids for requests that bring no usable `X-Request-ID`.
    let requestIDs = RequestIDGenerator()

    init(responder: any Responder, configuration: ServerConfiguration, logger: Logger, metrics: MetricsRegistry?) {
        self.responder = responder
        self.metrics = metrics
        self.configuration = configuration
        self.logger = logger
    }
}
