import Dispatch
import Observability
import Synchronization

/// What the C callbacks need, reached through MHD's `cls` pointer. Lives as long as the `Server`, which stops
/// the daemon (and so every callback) before releasing it.
final class ServerContext: Sendable {
    let responder: any Responder
    /// The configuration with `trustedProxies` moved to the property below: each request copies the limits it
    /// reads from here, and the ranges' array would be one more shared reference counted per request.
    let configuration: ServerConfiguration
    /// The configuration's trusted proxies, nil when there are none: then no request looks at forwarding headers.
    let trustedProxies: TrustedProxies?
    let logger: Logger
    let metrics: MetricsRegistry?
    /// Requests MHD has started (URI seen) and not yet reported completed, striped per thread. The sum is exact
    /// whichever thread completes a request (usually its connection's; the stopping thread at shutdown).
    private let inFlightStripes: Stripes
    /// Set once shutdown begins: responses ask the client to close the connection.
    let draining = Atomic<Bool>(false)
    /// Ids for requests that bring no usable `X-Request-ID`.
    let requestIDs: RequestIDGenerator
    /// The open connections, their deadlines and the connection limit.
    let connections: ConnectionGuard
    /// Where requests that would wait are run (nil: every request runs on its worker, waits included).
    let handoff: Handoff?

    /// Signalled while draining by a request whose completion leaves none in flight: `Server.shutdown` waits on
    /// it, once, instead of looking again after every completion or sleeping in a loop.
    let drained = DispatchSemaphore(value: 0)

    func requestStarted() { inFlightStripes.add(1, to: 0) }

    /// The decrement and the `draining` load are sequentially consistent, as are the store and the sum in
    /// `Server.shutdown`: either the completing thread sees `draining`, or the stopping thread's sum sees the
    /// decrement. While draining, each completing thread sums the stripes after its decrement (a sum of a few
    /// atomics, and only then); the one whose decrement is last in their total order sees zero and signals, so
    /// the last completion is never missed (two finishing together may both signal: the stopper looks again).
    func requestCompleted() {
        inFlightStripes.subtract(1, from: 0, sequentiallyConsistent: true)
        if draining.load(ordering: .sequentiallyConsistent), inFlight == 0 { drained.signal() }
    }

    var inFlight: Int { Int(bitPattern: UInt(inFlightStripes.sum(0, sequentiallyConsistent: true))) }

    init(responder: any Responder, configuration: ServerConfiguration, logger: Logger, metrics: MetricsRegistry?, handoff: Handoff?) {
        self.responder = responder
        self.handoff = handoff
        self.metrics = metrics
        var limits = configuration
        limits.trustedProxies = TrustedProxies()
        self.configuration = limits
        self.trustedProxies = configuration.trustedProxies.isEmpty ? nil : configuration.trustedProxies
        self.logger = logger
        self.connections = ConnectionGuard(configuration: configuration, metrics: metrics)
        // The owner's assignment when it has one (the registry's, sized by the application), else one per worker.
        let stripes = metrics?.stripes ?? StripeAssignment(threads: configuration.threads)
        inFlightStripes = Stripes(slots: 1, assignment: stripes)
        requestIDs = RequestIDGenerator(stripes: stripes)
    }
}
