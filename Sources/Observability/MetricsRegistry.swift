import Foundation
import Synchronization

/// Counters, histograms and gauges, rendered in the Prometheus text exposition format (version 0.0.4).
///
/// One registry is built by the application and injected; there is no global registry.
/// Recording takes one short lock; rendering copies the state out first.
public final class MetricsRegistry: Sendable {
    /// Label names to values, e.g. `["route": "/v1/resolve", "status": "200"]`.
    public typealias Labels = [String: String]

    private struct Family: Sendable {
        var help: String
        var kind: String
        var counters: [Labels: Double] = [:]
        var histograms: [Labels: HistogramState] = [:]
        var buckets: [Double] = []

        mutating func record(_ labels: Labels, _ value: Double) {
            let index = buckets.firstIndex(where: { value <= $0 })
            let empty = buckets.count
            histograms[labels, default: HistogramState(counts: Array(repeating: 0, count: empty))].add(value, bucket: index)
        }
    }

    private struct HistogramState: Sendable {
        var counts: [UInt64]
        var sum: Double = 0
        var count: UInt64 = 0

        mutating func add(_ value: Double, bucket: Int?) {
            if let bucket { counts[bucket] += 1 }
            sum += value
            count += 1
        }
    }

    private let families = Mutex<[String: Family]>([:])
    private let gauges = Mutex<[String: (help: String, read: @Sendable () -> [(Labels, Double)])]>([:])

    public init() {}

    /// Adds `amount` to the counter `name` with `labels`.
    public func increment(_ name: String, help: String, labels: Labels = [:], by amount: Double = 1) {
        families.withLock { families in
            families[name, default: Family(help: help, kind: "counter")].counters[labels, default: 0] += amount
        }
    }

    /// Records one observation of the histogram `name`.
    /// - Parameter buckets: upper bounds, ascending; fixed by the first observation of `name`.
    public func observe(_ name: String, help: String, labels: Labels = [:], value: Double, buckets: [Double] = MetricsRegistry.latencyBuckets) {
        families.withLock { families in
            // Mutated in place: copying the family out and back would copy its dictionaries on every call.
            families[name, default: Family(help: help, kind: "histogram", buckets: buckets)].record(labels, value)
        }
    }

    /// Registers a gauge whose samples are read at render time (pool sizes, queue depths).
    public func gauge(_ name: String, help: String, read: @escaping @Sendable () -> [(Labels, Double)]) {
        gauges.withLock { $0[name] = (help, read) }
    }

    /// The current value of a counter, for tests and for `/metrics` consumers inside the process.
    public func counterValue(_ name: String, labels: Labels = [:]) -> Double {
        families.withLock { $0[name]?.counters[labels] ?? 0 }
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
            for (labels, value) in family.counters.sorted(by: { Self.text($0.key) < Self.text($1.key) }) {
                out += "\(name)\(Self.text(labels)) \(Self.number(value))\n"
            }
            for (labels, state) in family.histograms.sorted(by: { Self.text($0.key) < Self.text($1.key) }) {
                var cumulative: UInt64 = 0
                for (bound, count) in zip(family.buckets, state.counts) {
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
