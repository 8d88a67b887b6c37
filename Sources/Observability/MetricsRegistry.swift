import Foundation
import Synchronization

/// Counters, histograms and gauges, rendered in the Prometheus text exposition format (version 0.0.4).
///
/// One registry is built by the application and injected; there is no global registry.
/// Series are atomics behind handles (`counter`, `histogram`): looking one up takes a short lock, recording
/// through a kept handle takes none.
public final class MetricsRegistry: Sendable {
    /// Label names to values, e.g. `["route": "/v1/resolve", "status": "200"]`.
    public typealias Labels = [String: String]

    private struct Family: Sendable {
        var help: String
        var kind: String
        var counters: [Labels: Counter] = [:]
        var histograms: [Labels: Histogram] = [:]
    }

    private let families = Mutex<[String: Family]>([:])
    private let gauges = Mutex<[String: (help: String, read: @Sendable () -> [(Labels, Double)])]>([:])

    /// The stripes every series of this registry records in, by thread.
    public let stripes: StripeAssignment

    /// A registry whose series keep a stripe for each of `threads` threads (the server's workers and the
    /// background threads that record; more share stripes).
    public init(threads: Int = 4) {
        stripes = StripeAssignment(threads: threads)
    }

    /// The counter series `name` with `labels`, created at zero the first time. Hot paths keep the handle: each
    /// increment is then one atomic add, with no label hashing and no lock.
    public func counter(_ name: String, help: String, labels: Labels = [:]) -> Counter {
        families.withLock { families in
            if let existing = families[name]?.counters[labels] { return existing }
            let counter = Counter(assignment: stripes)
            families[name, default: Family(help: help, kind: "counter")].counters[labels] = counter
            return counter
        }
    }

    /// The histogram series `name` with `labels`, created empty the first time.
    /// - Parameter buckets: upper bounds, ascending; a new series of an existing family takes the family's.
    public func histogram(
        _ name: String, help: String, labels: Labels = [:], buckets: [Double] = MetricsRegistry.latencyBuckets
    ) -> Histogram {
        families.withLock { families in
            if let existing = families[name]?.histograms[labels] { return existing }
            let bounds = families[name]?.histograms.values.first?.bounds ?? buckets
            let histogram = Histogram(bounds: bounds, assignment: stripes)
            families[name, default: Family(help: help, kind: "histogram")].histograms[labels] = histogram
            return histogram
        }
    }

    /// Adds `amount` to the counter `name` with `labels` (looks the series up: keep `counter(...)` on hot paths).
    public func increment(_ name: String, help: String, labels: Labels = [:], by amount: UInt64 = 1) {
        counter(name, help: help, labels: labels).increment(by: amount)
    }

    /// Records one observation of the histogram `name` (looks the series up: keep `histogram(...)` on hot paths).
    /// - Parameter buckets: upper bounds, ascending; fixed by the first series of `name`.
    public func observe(
        _ name: String, help: String, labels: Labels = [:], value: Double, buckets: [Double] = MetricsRegistry.latencyBuckets
    ) {
        histogram(name, help: help, labels: labels, buckets: buckets).observe(value)
    }

    /// Registers a gauge whose samples are read at render time (pool sizes, queue depths).
    public func gauge(_ name: String, help: String, read: @escaping @Sendable () -> [(Labels, Double)]) {
        gauges.withLock { $0[name] = (help, read) }
    }

    /// The current value of a counter, for tests and for `/metrics` consumers inside the process.
    public func counterValue(_ name: String, labels: Labels = [:]) -> Double {
        Double(families.withLock { $0[name]?.counters[labels] }?.value ?? 0)
    }

    /// Seconds: 0.5 ms to 10 s.
    public static let latencyBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// Everything in the Prometheus text format, families sorted by name.
    public func render() -> String {
        let snapshot = families.withLock { $0 }
        let gaugeReaders = gauges.withLock { $0 }
        var out = ""
        for name in snapshot.keys.sorted() {
            let family = snapshot[name]!
            out += "# HELP \(name) \(family.help)\n# TYPE \(name) \(family.kind)\n"
            for (labels, counter) in family.counters.sorted(by: { Self.text($0.key) < Self.text($1.key) }) {
                out += "\(name)\(Self.text(labels)) \(counter.value)\n"
            }
            for (labels, histogram) in family.histograms.sorted(by: { Self.text($0.key) < Self.text($1.key) }) {
                let state = histogram.snapshot
                var cumulative: UInt64 = 0
                for (bound, count) in zip(histogram.bounds, state.counts) {
                    cumulative += count
                    out += "\(name)_bucket\(Self.text(labels, adding: ("le", Self.number(bound)))) \(cumulative)\n"
                }
                out += "\(name)_bucket\(Self.text(labels, adding: ("le", "+Inf"))) \(state.count)\n"
                out += "\(name)_sum\(Self.text(labels)) \(Self.number(state.sum))\n"
                out += "\(name)_count\(Self.text(labels)) \(state.count)\n"
            }
        }
        for name in gaugeReaders.keys.sorted() {
            let gauge = gaugeReaders[name]!
            out += "# HELP \(name) \(gauge.help)\n# TYPE \(name) gauge\n"
            for (labels, value) in gauge.read() {
                out += "\(name)\(Self.text(labels)) \(Self.number(value))\n"
            }
        }
        return out
    }

    private static func text(_ labels: Labels, adding extra: (String, String)? = nil) -> String {
        var pairs = labels.sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) }
        if let extra { pairs.append(extra) }
        if pairs.isEmpty { return "" }
        return "{" + pairs.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: ",") + "}"
    }

    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
