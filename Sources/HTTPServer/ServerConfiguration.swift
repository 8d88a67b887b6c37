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
    /// Longest accepted request target (path and query); longer gets 414.
    public var maxURIBytes: Int
    /// Largest accepted header section (sum of `name: value\r\n` lines); larger gets 431.
    public var maxHeaderBytes: Int
    /// Seconds a connection may stay idle (or trickle bytes without completing) before MHD closes it; `0` disables.
    public var connectionTimeout: Int
    /// Maximum number of open connections.
    public var connectionLimit: Int
    /// `MHD_USE_TURBO`: opportunistic reads and writes (FIELD-NOTES measured +16% throughput).
    public var turbo: Bool
    /// Peers whose `X-Forwarded-For` / `Forwarded` / `X-Forwarded-Proto` name the client; empty: none.
    public var trustedProxies = TrustedProxies()

    /// Creates a configuration; every parameter has the production default.
    public init(host: String = "127.0.0.1", port: Int = 8080, threads: Int = 2, maxBodyBytes: Int = 1 << 20,
                maxURIBytes: Int = 8192, maxHeaderBytes: Int = 16384, connectionTimeout: Int = 30,
                connectionLimit: Int = 1024, turbo: Bool = true) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBodyBytes = maxBodyBytes
        self.maxURIBytes = maxURIBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.connectionTimeout = connectionTimeout
        self.connectionLimit = connectionLimit
        self.turbo = turbo
    }

    /// MHD's per-connection memory pool (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`). MHD answers 414/431 by itself,
    /// with its own HTML body, when the request line or headers overflow this pool; it is sized just above our
    /// own limits (the request head must fit, plus room for MHD's header records and the response head) so that
    /// the `Server` sees oversized requests first and answers them with problem+json. Not larger: MHD zeroes the
    /// whole pool after every request, and at 64 KB that memset cost ~2.5 µs of CPU per request, a quarter of
    /// nginx's whole cost per request (bench/serving/README.md).
    var connectionMemoryLimit: Int {
        maxURIBytes + maxHeaderBytes + 4 * 1024
    }
}
