import Observability
import Synchronization

/// The metrics of one route label: `linkd_http_request_duration_seconds{route}` and
/// `linkd_http_requests_total{route,method,status}`, resolved once so that a request records them without
/// building or hashing label dictionaries.
final class RouteMetrics: Sendable {
    private struct Key: Hashable {
        let method: HTTPMethod
        let status: Int
    }

    let label: String
    private let registry: MetricsRegistry
    private let duration: Histogram
    private let counters = Mutex<[Key: Counter]>([:])

    init(label: String, registry: MetricsRegistry) {
        self.label = label
        self.registry = registry
        self.duration = registry.histogram("linkd_http_request_duration_seconds", help: "Time spent routing and handling HTTP requests.",
                                           labels: ["route": label])
    }

    func record(method: HTTPMethod, status: Int, seconds: Double) {
        duration.observe(seconds)
        let key = Key(method: method, status: status)
        let counter = counters.withLock { $0[key] } ?? resolve(key)
        counter.increment()
    }

    /// First request of a method and status on this route: registers the series.
    private func resolve(_ key: Key) -> Counter {
        let counter = registry.counter("linkd_http_requests_total", help: "HTTP requests by route template, method and status.",
                                       labels: ["route": label, "method": key.method.rawValue, "status": String(key.status)])
        counters.withLock { $0[key] = counter }
        return counter
    }
}
