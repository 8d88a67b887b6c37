import CCurl
import Glibc
import Observability
import Synchronization

/// Outbound HTTP through libcurl, for the association health checks (docs/HEALTH.md, "Outbound HTTP"): GET
/// only, redirects reported and never followed, TLS verified (peer and host name), http and https only, bounded
/// in time and size, no proxy from the environment, no cookies. Every URL is checked against the
/// `OutboundTargets` the caller passes before any connection is made.
///
/// One client is shared by every thread. Each request borrows an easy handle from a small pool, sets every
/// option afresh (`curl_easy_reset`) and gives it back: a handle keeps its live connections, DNS cache and TLS
/// sessions across a reset, so the many checks that ask the same host (Apple's CDN and Google's API are asked
/// once for each of thousands of domains) reuse one connection instead of a TCP and TLS handshake each, and no
/// handle is ever used by two threads at once. A handle whose request failed is closed rather than kept.
public final class HTTPClient: Sendable {
    public struct Settings: Sendable {
        /// The TCP connection and TLS handshake.
        public var connectTimeout: Duration = .seconds(5)
        /// The whole request, connection included, unless the request sets its own.
        public var timeout: Duration = .seconds(10)
        /// The largest body read, unless the request sets its own.
        public var maxBodyBytes = 1 << 20
        /// Names connected to at fixed addresses (`CURLOPT_RESOLVE`).
        public var resolve: [ResolveOverride] = []
        /// CA certificates (PEM) trusted instead of the system's (`CURLOPT_CAINFO`); nil: the system's.
        public var caFile: String?
        /// Sent with every request: the project, as servers' logs should name it.
        public var userAgent = "linkd/1"
        /// Idle handles kept for reuse; more are closed when given back.
        public var idleHandles = 4

        public init() {}
    }

    public let settings: Settings
    private let resolveList: CurlStringList
    private let idle = Mutex<[EasyHandle]>([])
    private let logger: Logger
    private let outcomes: [String: Counter]

    /// - Throws: `OutboundFailure` (`.other`) when libcurl cannot start or the CA file cannot be read.
    public init(settings: Settings = Settings(), logger: Logger = Logger(label: "linkd.outbound", sink: .discard),
                metrics: MetricsRegistry? = nil) throws {
        guard Curl.initialized else { throw OutboundFailure(.other, "libcurl could not be initialised") }
        if let caFile = settings.caFile, access(caFile, R_OK) != 0 {
            throw OutboundFailure(.other, "cannot read the CA file \(caFile)")
        }
        self.settings = settings
        resolveList = CurlStringList(settings.resolve.map(\.description))
        self.logger = logger
        let registry = metrics ?? MetricsRegistry(threads: 1)
        var outcomes: [String: Counter] = [:]
        for outcome in ["answered"] + OutboundFailure.Kind.allCases.map(\.rawValue) {
            outcomes[outcome] = registry.counter("linkd_outbound_requests_total",
                                                 help: "Outbound HTTP requests (health checks), by outcome: answered or why not.",
                                                 labels: ["outcome": outcome])
        }
        self.outcomes = outcomes
    }

    /// libcurl's version, for logs.
    public static var curlVersion: String { Curl.version }

    /// GETs `request.url` if `targets` allows it, and answers whatever the server said (any status; a redirect
    /// with its `Location`, not followed).
    /// - Throws: `OutboundFailure` saying why there is no answer; `.refusedTarget` before any connection.
    public func fetch(_ request: OutboundRequest, allowedBy targets: OutboundTargets) throws(OutboundFailure) -> OutboundResponse {
        let result: Result<OutboundResponse, OutboundFailure>
        switch targets.check(request.url) {
        case .failure(let refusal): result = .failure(refusal)
        case .success(let url): result = perform(request, url: url)
        }
        switch result {
        case .success(let response):
            outcomes["answered"]?.increment()
            logger.debug("outbound request answered", metadata: ["url": response.effectiveURL, "status": "\(response.status)"])
            return response
        case .failure(let failure):
            outcomes[failure.kind.rawValue]?.increment()
            logger.debug("outbound request failed", metadata: ["url": request.url, "failure": failure.kind.rawValue,
                                                               "detail": failure.message])
            throw failure
        }
    }

    private func perform(_ request: OutboundRequest, url: OutboundURL) -> Result<OutboundResponse, OutboundFailure> {
        // libcurl sends header lines as given: a CR or LF would start another header, a NUL end the C string.
        let headerBytes = request.headers.flatMap { Array($0.name.utf8) + Array($0.value.utf8) }
        guard !headerBytes.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) else {
            return .failure(OutboundFailure(.other, "a request header holds a control character"))
        }
        guard let handle = idle.withLock({ $0.popLast() }) ?? EasyHandle() else {
            return .failure(OutboundFailure(.other, "libcurl could not make a handle"))
        }
        let timeout = request.timeout ?? settings.timeout
        let transfer = EasyHandle.Transfer(url: url.text, headers: request.headers.map { "\($0.name): \($0.value)" },
                                           connectTimeout: min(settings.connectTimeout, timeout), timeout: timeout,
                                           maxBodyBytes: request.maxBodyBytes ?? settings.maxBodyBytes,
                                           resolve: resolveList, caFile: settings.caFile, userAgent: settings.userAgent)
        let result = handle.perform(transfer)
        if case .success = result {
            let surplus: EasyHandle? = idle.withLock { handles in
                guard handles.count < settings.idleHandles else { return handle }
                handles.append(handle)
                return nil
            }
            _ = surplus   // released here, outside the lock: its deinit closes its connections
        }
        return result
    }
}
