/// Where and how the `Server` listens, and the limits it enforces.
public struct ServerConfiguration: Sendable {
    /// IPv4 or IPv6 literal to bind; `"0.0.0.0"` (IPv4) or `"::"` (IPv6 and IPv4) for all interfaces.
    public var host: String
    /// TCP port; `0` picks a free one (read it back from `Server.port`).
    public var port: Int
    /// Size of MHD's internal epoll thread pool: handlers run on these threads.
    public var threads: Int
    /// Largest accepted request body; larger declared (`Content-Length`) or received (chunked) bodies get 413.
    public var maxBodyBytes: Int
    /// Larger limits for the bodies of a few routes (a bulk upload), by method and exact path: the
    /// request's own when it names one of them, `maxBodyBytes` otherwise.
    public var routeBodyLimits: [RouteBodyLimit] = []
    /// Longest accepted request target (path and query); longer gets 414.
    public var maxURIBytes: Int
    /// Largest accepted header section (sum of `name: value\r\n` lines); larger gets 431.
    public var maxHeaderBytes: Int
    /// Seconds a keep-alive connection may wait for its next request, and a response may go unread, before the
    /// server closes the connection (the idle timeout); `0` disables.
    public var connectionTimeout: Int
    /// Seconds a request's line and headers may take: from the accept for a connection's first request, from
    /// the request line on later keep-alive requests. Trickling bytes does not extend it. `0` disables.
    public var headerTimeout: Int
    /// Seconds a request's body may take to arrive, from the end of its headers; `0` disables.
    public var bodyTimeout: Int
    /// Bytes a second a request body must average once it has taken `bodyRateGrace` seconds; a slower body is
    /// closed like a late header (docs/CONNECTIONS.md). `0` disables.
    public var bodyMinimumRate = 240
    /// Seconds a request body may take before `bodyMinimumRate` applies to it.
    public var bodyRateGrace = 5
    /// Open connections the server keeps. A connection beyond it makes room by closing the oldest connection
    /// that is idle or has not sent its whole header yet; when every connection is busy with a request, the new
    /// one is answered 503 and closed (docs/CONNECTIONS.md). Bodies being read may hold all but an eighth of it
    /// (`bodyShare`): beyond that, the slowest body makes room too.
    public var connectionLimit: Int
    /// `MHD_USE_TURBO`: opportunistic reads and writes, for more requests a second (docs/field-notes.md §6).
    public var turbo: Bool
    /// Peers whose `X-Forwarded-For` / `Forwarded` / `X-Forwarded-Proto` name the client; empty: none.
    public var trustedProxies = TrustedProxies()

    /// Creates a configuration; every parameter has the production default.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, threads: Int = 2, maxBodyBytes: Int = 1 << 20,
        maxURIBytes: Int = 8192, maxHeaderBytes: Int = 16384, connectionTimeout: Int = 30,
        headerTimeout: Int = 10, bodyTimeout: Int = 30, connectionLimit: Int = 1024, turbo: Bool = true
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.maxURIBytes = maxURIBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.connectionTimeout = connectionTimeout
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.connectionLimit = connectionLimit
        self.turbo = turbo
    }

    /// The largest body a `method` request to `path` (the raw target before its `?`) may have.
    func maxBodyBytes(method: String, path: String) -> Int {
        for limit in routeBodyLimits where limit.path == path && limit.method.rawValue == method {
            return limit.maxBytes
        }
        return maxBodyBytes
    }

    /// How many connections reading a request body the `ConnectionGuard` keeps at the limit before it closes the
    /// slowest to make room: all but an eighth of `connectionLimit` (at least one), kept for new clients.
    var bodyShare: Int {
        connectionLimit - max(1, connectionLimit / 8)
    }

    /// MHD's per-connection memory pool (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`). MHD answers 414/431 by itself
    /// when the request line or headers overflow this pool (the shim turns that answer into problem+json too);
    /// it is sized just above our own limits (the request head must fit, plus room for MHD's header records and
    /// the response head) so that the `Server` sees most oversized requests first. Not larger: MHD zeroes the
    /// whole pool after every request (docs/field-notes.md §5; the cost is measured in bench/serving/README.md).
    var connectionMemoryLimit: Int {
        maxURIBytes + maxHeaderBytes + 4 * 1024
    }

    /// MHD's own connection limit (`MHD_OPTION_CONNECTION_LIMIT`), above `connectionLimit`: MHD closes a
    /// connection over its limit before telling us (and divides it among the worker threads), so the room kept
    /// above ours lets every new connection reach the `ConnectionGuard`, which evicts or answers 503.
    var daemonConnectionLimit: Int {
        connectionLimit + max(16, connectionLimit / 8) + threads
    }
}

/// A body limit of its own for one route (`ServerConfiguration.routeBodyLimits`): a literal path, no parameters.
public struct RouteBodyLimit: Sendable, Equatable {
    public let method: HTTPMethod
    public let path: String
    public let maxBytes: Int

    public init(method: HTTPMethod, path: String, maxBytes: Int) {
        self.method = method
        self.path = path
        self.maxBytes = maxBytes
    }
}
