import Observability
import Synchronization

/// The metrics of one route label: `linkd_http_request_duration_seconds{route}` and
/// `linkd_http_requests_total{route,method,status}`, resolved once so that a request records them without
/// building or hashing label dictionaries, and, for the usual methods and statuses, without a lock.
final class RouteMetrics: Sendable {
    private struct Key: Hashable {
        let method: HTTPMethod
        let status: Int
    }

    private static let methods: [HTTPMethod] = [.GET, .HEAD, .POST, .PUT, .PATCH, .DELETE, .OPTIONS]
    private static let statuses = [
        200, 201, 204, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 405, 406, 409, 412,
        413, 414, 415, 422, 428, 429, 431, 500, 503,
    ]
    /// Status code → index in `statuses`, -1 for the others.
    private static let statusIndex: [Int8] = {
        var table = [Int8](repeating: -1, count: 600)
        for (index, status) in statuses.enumerated() { table[status] = Int8(index) }
        return table
    }()

    let label: String
    private let registry: MetricsRegistry
    private let duration: Histogram
    /// One lazily created counter per usual method and status.
    private let slots = OnceSlots<Counter>(count: methods.count * statuses.count)
    /// The rest (other methods and statuses).
    private let others = Mutex<[Key: Counter]>([:])

    init(label: String, registry: MetricsRegistry) {
        self.label = label
        self.registry = registry
        self.duration = registry.histogram(
            "linkd_http_request_duration_seconds", help: "Time spent routing and handling HTTP requests.",
            labels: ["route": label])
    }

    func record(method: HTTPMethod, status: Int, seconds: Double) {
        duration.observe(seconds)
        if let methodIndex = Self.methods.firstIndex(of: method), (0..<600).contains(status), Self.statusIndex[status] >= 0 {
            slots.object(methodIndex * Self.statuses.count + Int(Self.statusIndex[status])) { series(method, status) }.increment()
            return
        }
        let key = Key(method: method, status: status)
        let counter =
            others.withLock { $0[key] }
            ?? {
                let counter = series(method, status)
                others.withLock { $0[key] = counter }
                return counter
            }()
        counter.increment()
    }

    /// The registry's series (the same handle however often asked for).
    private func series(_ method: HTTPMethod, _ status: Int) -> Counter {
        Self.requests(route: label, method: method, status: status, in: registry)
    }

    /// `linkd_http_requests_total{route,method,status}` in `registry`: routed requests, and the ones the server
    /// refuses before routing (`route="rejected"`).
    static func requests(route: String, method: HTTPMethod, status: Int, in registry: MetricsRegistry) -> Counter {
        registry.counter(
            "linkd_http_requests_total", help: "HTTP requests by route template, method and status.",
            labels: ["route": route, "method": method.rawValue, "status": String(status)])
    }
}
