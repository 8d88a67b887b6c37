import CCurl
import Glibc
import Observability
import Synchronization

/// Outbound HTTP through libcurl, for the association health checks (docs/HEALTH.md, "Outbound HTTP") and
/// webhook deliveries (docs/WEBHOOKS.md, "Outbound safety"): GET or POST, redirects reported and never followed,
/// TLS verified (peer and host name), http and https only, bounded in time and size, no proxy from the
/// environment, no cookies. Every request is checked before any connection is made: `fetch` against the
/// `OutboundTargets` the caller passes (fixed bases, link domains' files), `send` against an `AddressPolicy`,
/// judged inside libcurl on each address it connects to.
///
/// One client is shared by every thread. Each request borrows an easy handle from a small pool, sets every
/// option afresh (`curl_easy_reset`) and gives it back: a handle keeps its live connections, DNS cache and TLS
/// sessions across a reset, so the many checks that ask the same host (Apple's CDN and Google's API are asked
/// once for each of thousands of domains) reuse one connection instead of a TCP and TLS handshake each, and no
/// handle is ever used by two threads at once. A handle whose request failed is closed rather than kept.
/// `send` has a pool of its own, so its connections are only ever ones an `AddressPolicy` admitted (and a
/// reused one is judged again before each request).
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
    /// Idle handles of `fetch`, and of `send`.
    private let idle = Mutex<[EasyHandle]>([])
    private let guardedIdle = Mutex<[EasyHandle]>([])
    private let logger: Logger
    private let outcomes: [String: Counter]

    /// - Throws: `OutboundFailure` (`.other`) when libcurl cannot start or the CA file cannot be read.
    public init(
        settings: Settings = Settings(), logger: Logger = Logger(label: "linkd.outbound", sink: .discard),
        metrics: MetricsRegistry? = nil
    ) throws {
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
            outcomes[outcome] = registry.counter(
                "linkd_outbound_requests_total",
                help: "Outbound HTTP requests (health checks, webhooks), by outcome: answered or why not.",
                labels: ["outcome": outcome])
        }
        self.outcomes = outcomes
    }

    /// libcurl's version, for logs.
    public static var curlVersion: String { Curl.version }

    /// Sends `request` if `targets` allows its URL, and answers whatever the server said (any status; a redirect
    /// with its `Location`, not followed).
    /// - Throws: `OutboundFailure` saying why there is no answer; `.refusedTarget` before any connection.
    public func fetch(_ request: OutboundRequest, allowedBy targets: OutboundTargets) throws(OutboundFailure) -> OutboundResponse {
        let result: Result<OutboundResponse, OutboundFailure>
        switch targets.check(request.url) {
        case .failure(let refusal): result = .failure(refusal)
        case .success(let url): result = perform(request, url: url, policy: nil)
        }
        return try report(result, of: request)
    }

    /// Sends `request` to any `https` URL (`http` too when `allowHTTP`) without user information or fragment,
    /// connecting only to addresses `policy` allows, and answers whatever the server said (any status, a
    /// redirect not followed). The policy is enforced inside libcurl on each address a socket is opened for
    /// (whether DNS, a `Settings.resolve` override or the URL gave it) and again on a reused connection before
    /// the request is written, so a name that resolves elsewhere now than when it was checked is still refused.
    /// - Throws: `OutboundFailure` saying why there is no answer: `.refusedTarget` for the URL's form and
    ///   `.refusedAddress` (naming the address and its range) before any connection.
    public func send(
        _ request: OutboundRequest, allowedBy policy: AddressPolicy, allowHTTP: Bool
    ) throws(OutboundFailure) -> OutboundResponse {
        let result: Result<OutboundResponse, OutboundFailure>
        switch AddressPolicy.target(request.url, allowHTTP: allowHTTP) {
        case .failure(let refusal): result = .failure(refusal)
        case .success(let url): result = perform(request, url: url, policy: policy)
        }
        return try report(result, of: request)
    }

    /// `url` as logged: a POST's without its query, which a webhook's target may use to carry the receiver's token.
    static func logged(_ url: String, _ request: OutboundRequest) -> String {
        request.method == .post ? String(url.prefix { $0 != "?" }) : url
    }

    /// Counts and logs the outcome, and answers it.
    private func report(
        _ result: Result<OutboundResponse, OutboundFailure>, of request: OutboundRequest
    ) throws(OutboundFailure) -> OutboundResponse {
        switch result {
        case .success(let response):
            outcomes["answered"]?.increment()
            logger.debug(
                "outbound request answered",
                metadata: [
                    "method": request.method.rawValue, "url": Self.logged(response.effectiveURL, request),
                    "status": "\(response.status)",
                ])
            return response
        case .failure(let failure):
            outcomes[failure.kind.rawValue]?.increment()
            logger.debug(
                "outbound request failed",
                metadata: [
                    "method": request.method.rawValue, "url": Self.logged(request.url, request),
                    "failure": failure.kind.rawValue, "detail": failure.message,
                ])
            throw failure
        }
    }

    private func perform(_ request: OutboundRequest, url: OutboundURL, policy: AddressPolicy?) -> Result<OutboundResponse, OutboundFailure>
    {
        var headers = request.headers.map { "\($0.name): \($0.value)" }
        switch request.method {
        case .get:
            guard request.body == nil else { return .failure(OutboundFailure(.other, "a GET request has no body")) }
        case .post:
            // An empty Expect stops libcurl asking for `100 Continue` (and waiting a second for it) before a
            // large body; an empty Content-Type stops it sending its form type when the request names none.
            headers.append("Expect:")
            if let contentType = request.contentType {
                headers.append("Content-Type: \(contentType)")
            } else if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append("Content-Type:")
            }
        }
        // libcurl sends header lines as given: a CR or LF would start another header, a NUL end the C string.
        let headerBytes = request.headers.flatMap { Array($0.name.utf8) + Array($0.value.utf8) } + Array((request.contentType ?? "").utf8)
        guard !headerBytes.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 == 0x7F }) else {
            return .failure(OutboundFailure(.other, "a request header holds a control character"))
        }
        let guarded = policy != nil
        guard let handle = withPool(guarded, { $0.popLast() }) ?? EasyHandle() else {
            return .failure(OutboundFailure(.other, "libcurl could not make a handle"))
        }
        let timeout = request.timeout ?? settings.timeout
        let transfer = EasyHandle.Transfer(
            url: url.text, method: request.method, headers: headers, body: request.body,
            connectTimeout: min(settings.connectTimeout, timeout), timeout: timeout,
            maxBodyBytes: request.maxBodyBytes ?? settings.maxBodyBytes,
            truncateBody: request.truncateBody,
            resolve: resolveList, caFile: settings.caFile, userAgent: settings.userAgent,
            policy: policy)
        let result = handle.perform(transfer)
        if case .success = result {
            let surplus: EasyHandle? = withPool(guarded) { handles in
                guard handles.count < settings.idleHandles else { return handle }
                handles.append(handle)
                return nil
            }
            _ = surplus // released here, outside the lock: its deinit closes its connections
        }
        return result
    }

    /// Runs `body` on the idle handles of `send` (`guarded`) or of `fetch`, under their lock.
    private func withPool<T>(_ guarded: Bool, _ body: (inout [EasyHandle]) -> T) -> T {
        guarded ? guardedIdle.withLock { body(&$0) } : idle.withLock { body(&$0) }
    }
}
