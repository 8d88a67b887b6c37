import CMicroHTTPD
import CMicroHTTPDShim
import Dispatch
import Glibc
import Observability
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: an internal epoll thread pool calls the `Responder` synchronously.
///
/// Limits. The server itself answers, with problem+json, `X-Request-ID` and `Connection: close`, before the
/// responder runs: 400 when the request line or a header holds a NUL byte, or `Host` is missing from an HTTP/1.1
/// request or repeated (`RequestHead`); 414 when the request target exceeds `maxURIBytes`, 431 when the header section exceeds
/// `maxHeaderBytes`, 413 when `Content-Length` exceeds `maxBodyBytes` (at once, without reading the body) or a
/// chunked body grows past it (after reading and discarding the rest), 400 when the body is framed twice
/// (`Content-Length` repeated, or with `Transfer-Encoding`). What libmicrohttpd's parser refuses before any of
/// our callbacks runs (a request head beyond its memory pool, a malformed request line or header line, a bad
/// `Content-Length` or chunk size, an HTTP major version other than 1) it answers itself, and the shim swaps
/// that answer for the same status as problem+json (`mhdErrorResponse`).
///
/// Connections. Header, body and idle deadlines and the connection limit are kept by the `ConnectionGuard`
/// (docs/CONNECTIONS.md).
///
/// `@unchecked Sendable`: the only mutable state, the `MHD_Daemon *` and the quiesced listen socket, lives
/// behind `state`'s lock; the daemon is stopped before the context its callbacks use is released (`deinit`).
public final class Server: @unchecked Sendable {
    private struct State {
        var daemon: OpaquePointer?
        var port = 0
        var stopped = false
    }

    private let configuration: ServerConfiguration
    private let context: ServerContext
    private let logger: Logger
    private let state = Mutex(State())
    /// Signalled once the daemon is stopped, for callers of `shutdown()` who found another caller stopping it.
    private let stopped = DispatchSemaphore(value: 0)

    /// Threads the server runs beside its workers that record metrics (the connection watchdog): an owner
    /// sizing the metrics' stripes counts them.
    public static let backgroundThreads = 1

    /// Creates a server; nothing is bound until `start()`.
    /// - Parameters:
    ///   - configuration: address, port, threads, limits and timeouts.
    ///   - responder: answers every request (usually a `Router`).
    ///   - logger: server lifecycle messages and requests refused before routing.
    ///   - metrics: when given, requests refused before routing (413/414/431) are counted in
    ///   `linkd_http_requests_total{route="rejected"}`; routed requests are counted by the `Router`.
    ///   - handoff: when given, a request that asks it whether it may wait (`Handoff.mayWait`) is run again on its
    ///     threads, its connection suspended meanwhile, so the workers never wait; the server starts and stops it.
    public init(
        configuration: ServerConfiguration, responder: any Responder, logger: Logger, metrics: MetricsRegistry? = nil,
        handoff: Handoff? = nil
    ) {
        self.configuration = configuration
        self.logger = logger
        self.context = ServerContext(responder: responder, configuration: configuration, logger: logger, metrics: metrics, handoff: handoff)
    }

    deinit {
        // Callbacks hold `context` unretained: the daemon must be gone before it is.
        shutdown(gracePeriod: .zero)
    }

    /// The bound port (meaningful after `start()`, also when configured as `0`).
    public var port: Int { state.withLock { $0.port } }

    /// Number of requests started but not yet completed.
    public var inFlightRequests: Int { context.inFlight }

    /// Number of open connections (the ones the server is closing excluded).
    public var openConnections: Int { context.connections.open }

    /// Whether `shutdown` has begun: no new connections, responses carry `Connection: close`.
    public var isDraining: Bool { context.draining.load(ordering: .acquiring) }

    /// Binds and starts serving.
    /// - Throws: `HTTPServerError` — `.invalidAddress` (host not an IP literal, port out of range),
    ///   `.invalidConfiguration` (limits), `.bindFailed` (in use, not a local address), `.alreadyStarted`.
    public func start() throws {
        let address = Self.display(host: configuration.host, port: configuration.port)
        guard (0...65535).contains(configuration.port) else {
            throw HTTPServerError(.invalidAddress, address: address, reason: "port out of range")
        }
        guard configuration.threads >= 1, configuration.maxBodyBytes >= 0, configuration.maxURIBytes > 0,
            configuration.maxHeaderBytes > 0, configuration.connectionTimeout >= 0, configuration.headerTimeout >= 0,
            configuration.bodyTimeout >= 0, configuration.bodyMinimumRate >= 0, configuration.bodyRateGrace >= 0,
            configuration.connectionLimit > 0
        else {
            throw HTTPServerError(.invalidConfiguration, address: address)
        }
        guard let socketAddress = SocketAddress(host: configuration.host, port: UInt16(configuration.port)) else {
            throw HTTPServerError(.invalidAddress, address: address, reason: "not an IPv4 or IPv6 literal")
        }
        raiseDescriptorLimit(to: configuration.daemonConnectionLimit + 256)
        try state.withLock { state in
            guard state.daemon == nil, !state.stopped else { throw HTTPServerError(.alreadyStarted, address: address) }
            var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue
            if configuration.turbo { flags |= MHD_USE_TURBO.rawValue }
            if context.handoff != nil { flags |= MHD_ALLOW_SUSPEND_RESUME.rawValue }
            if socketAddress.isIPv6 { flags |= (socketAddress.isAny ? MHD_USE_DUAL_STACK : MHD_USE_IPv6).rawValue }
            let cls = Unmanaged.passUnretained(context).toOpaque()
            errno = 0
            let daemon = socketAddress.withSockaddrPointer { sockaddr -> OpaquePointer? in
                var options: [MHD_OptionItem] = [
                    MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: sockaddr)),
                    MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
                    MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.daemonConnectionLimit, ptr_value: nil),
                    MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
                    // Two-pointer options: "the first argument must be cast to intptr_t" (microhttpd.h, MHD_OPTION_ARRAY).
                    MHD_OptionItem(option: .URI_LOG_CALLBACK, value: MHDCallbacks.uriLogAddress, ptr_value: cls),
                    MHD_OptionItem(option: .NOTIFY_COMPLETED, value: MHDCallbacks.requestCompletedAddress, ptr_value: cls),
                    MHD_OptionItem(option: .NOTIFY_CONNECTION, value: MHDCallbacks.notifyConnectionAddress, ptr_value: cls),
                    MHD_OptionItem(option: .UNESCAPE_CALLBACK, value: MHDCallbacks.keepEscapesAddress, ptr_value: nil),
                ]
                if configuration.threads > 1 {
                    options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
                }
                options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
                return options.withUnsafeBufferPointer { buffer in
                    linkd_mhd_start_daemon(flags, UInt16(configuration.port), mhdAccessHandler, cls, buffer.baseAddress)
                }
            }
            guard let daemon else {
                let reason = errno == 0 ? nil : String(cString: strerror(errno))
                throw HTTPServerError.bindFailed(address, reason: reason)
            }
            state.daemon = daemon
            state.port = Int(linkd_mhd_bound_port(daemon))
        }
        context.connections.startWatchdog()
        context.handoff?.start()
        if linkd_mhd_error_answers_replaced() == 0 {
            logger.warning(
                "libmicrohttpd's own error answers are sent as they are (not problem+json): the executable does not export the shim's MHD_queue_response"
            )
        }
        logger.info("http server listening", metadata: ["http.address": Self.display(host: configuration.host, port: port)])
    }

    /// Stops gracefully: stops serving new connections (each is closed as it is accepted), lets in-flight requests
    /// finish for up to `gracePeriod`, then stops the daemon, closing idle keep-alive connections. Idempotent; blocks
    /// until done.
    public func shutdown(gracePeriod: Duration = .seconds(10)) {
        let taken: OpaquePointer?? = state.withLock { state in
            guard let daemon = state.daemon else { return .some(nil) } // never started, or already stopped
            guard !state.stopped else { return nil } // another caller is stopping it
            state.stopped = true
            return daemon
        }
        guard let taken else {
            // Idempotent and blocking for every caller: wait for the first caller to finish stopping (each
            // waiter passes the signal on).
            stopped.wait()
            stopped.signal()
            return
        }
        guard let daemon = taken else { return }
        context.draining.store(true, ordering: .sequentiallyConsistent)
        // New connections are closed as they are accepted while draining (`mhdConnectionNotified`), not refused
        // with MHD_quiesce_daemon: libmicrohttpd 0.9.75's quiesce removes the listening socket from each worker's
        // epoll set while a worker that wakes meanwhile may remove it too, and the second removal aborts the
        // process ("Failed to remove listen FD from epoll set", docs/field-notes.md §5).

        // The request whose completion leaves none in flight signals `drained`; the sum is read again after a
        // signal (a request may have started since on a kept-alive connection), until the deadline.
        let (seconds, attoseconds) = gracePeriod.components
        let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        while context.inFlight > 0, context.drained.wait(timeout: deadline) == .success {}
        let abandoned = context.inFlight
        // "It is an API violation to call MHD_stop_daemon while having suspended connections" (microhttpd.h): every
        // handed-off request is finished, and its connection resumed, first (their waits are bounded).
        context.handoff?.shutdown()
        MHD_stop_daemon(daemon)
        context.connections.stopWatchdog()
        state.withLock { $0.daemon = nil }
        stopped.signal()
        if abandoned > 0 {
            logger.warning("http server stopped with requests in flight", metadata: ["http.in_flight": String(abandoned)])
        } else {
            logger.info("http server stopped")
        }
    }

    /// Raises the soft limit on open descriptors to the hard limit when it is below `needed`: each connection is one,
    /// and a default soft limit of 1024 would refuse connections below `connectionLimit`.
    private func raiseDescriptorLimit(to needed: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(needed) else { return }
        let wanted = limit.rlim_max == rlim_t.max ? rlim_t(needed) : limit.rlim_max
        if wanted > limit.rlim_cur {
            limit.rlim_cur = wanted
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        if wanted < rlim_t(needed) {
            logger.warning(
                "the descriptor limit is below the connection limit",
                metadata: [
                    "http.connection_limit": String(configuration.connectionLimit), "process.nofile": String(wanted),
                ])
        }
    }

    static func display(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
