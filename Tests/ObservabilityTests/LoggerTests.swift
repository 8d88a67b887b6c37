import Foundation
import Synchronization
import Observability
import Testing

@Suite("Logger")
struct LoggerTests {
    @Test func writesOneJSONObjectPerLineWithMetadata() throws {
        let sink = InMemoryLogSink()
        var logger = Logger(label: "linkd.test", level: .info, sink: sink.sink)
        logger.metadata["node"] = "a"
        logger.info("hello \"world\"\n", metadata: ["request.id": "r1"])
        let line = try #require(sink.entries.first?.jsonLine)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object["message"] == "hello \"world\"\n")
        #expect(object["level"] == "info")
        #expect(object["logger"] == "linkd.test")
        #expect(object["request.id"] == "r1")
        #expect(object["node"] == "a")
        #expect(!line.contains("\n"))
    }

    @Test func dropsMessagesBelowItsLevelWithoutFormattingThem() {
        let sink = InMemoryLogSink()
        let logger = Logger(label: "t", level: .warning, sink: sink.sink)
        var formatted = false
        logger.info(
            {
                formatted = true; return "x"
            }())
        logger.error("kept")
        #expect(!formatted)
        #expect(sink.entries.map(\.message) == ["kept"])
    }

    @Test("level names", arguments: Logger.Level.allCases)
    func levelNames(level: Logger.Level) {
        #expect(Logger.Level(name: level.name.uppercased()) == level)
    }
}

@Suite("MetricsRegistry")
struct MetricsRegistryTests {
    @Test func rendersCountersHistogramsAndGaugesInPrometheusFormat() {
        let metrics = MetricsRegistry()
        metrics.increment("requests_total", help: "Requests.", labels: ["route": "/a", "status": "200"])
        metrics.increment("requests_total", help: "Requests.", labels: ["route": "/a", "status": "200"])
        metrics.observe("latency_seconds", help: "Latency.", labels: ["route": "/a"], value: 0.003, buckets: [0.001, 0.01])
        metrics.gauge("queue_depth", help: "Depth.") { [([:], 7)] }
        let text = metrics.render()
        #expect(text.contains("# TYPE requests_total counter\nrequests_total{route=\"/a\",status=\"200\"} 2\n"))
        #expect(text.contains("latency_seconds_bucket{route=\"/a\",le=\"0.001\"} 0\n"))
        #expect(text.contains("latency_seconds_bucket{route=\"/a\",le=\"0.01\"} 1\n"))
        #expect(text.contains("latency_seconds_bucket{route=\"/a\",le=\"+Inf\"} 1\n"))
        #expect(text.contains("latency_seconds_count{route=\"/a\"} 1\n"))
        #expect(text.contains("# TYPE queue_depth gauge\nqueue_depth 7\n"))
        #expect(metrics.counterValue("requests_total", labels: ["route": "/a", "status": "200"]) == 2)
    }

    @Test func labelValuesAreEscaped() {
        let metrics = MetricsRegistry()
        metrics.increment("c", help: "h", labels: ["v": "a\"b\\c\nd"])
        #expect(metrics.render().contains(#"c{v="a\"b\\c\nd"} 1"#))
    }

    @Test func concurrentIncrementsAreAllCounted() {
        let metrics = MetricsRegistry()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1000 { metrics.increment("c", help: "h") }
        }
        #expect(metrics.counterValue("c") == 8000)
    }

    /// Stripes sum what every thread added, also when a value is taken back on another thread (the in-flight
    /// count: a request may complete on another thread than the one it started on).
    @Test func stripesSumAcrossThreads() {
        let stripes = Stripes(slots: 3, assignment: StripeAssignment(threads: 4))
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1000 { stripes.add(2, to: 1) }
        }
        #expect(stripes.sum(1) == 16000)
        #expect(stripes.sum(0) == 0 && stripes.sum(2) == 0)
        stripes.add(5, to: 0)
        let joined = DispatchSemaphore(value: 0)
        let other = Thread {
            stripes.subtract(5, from: 0)
            joined.signal()
        }
        other.start()
        joined.wait()
        #expect(stripes.sum(0) == 0)
        #expect((0..<stripes.count).contains(stripes.assignment.current))
    }

    /// An assignment keeps as many threads apart as it was sized for (`--threads` allows 256 workers), each
    /// thread keeping its stripe; beyond that, threads share.
    @Test func anAssignmentGivesEachOfItsThreadsAStripeOfItsOwn() {
        #expect(StripeAssignment(threads: 1).count == 1)
        #expect(StripeAssignment(threads: 6).count == 8)
        let assignment = StripeAssignment(threads: 260)
        #expect(assignment.count == 512)
        let seen = Mutex<[Int]>([])
        let ready = DispatchGroup()
        for _ in 0..<260 {
            ready.enter()
            Thread {
                let stripe = assignment.current
                #expect(assignment.current == stripe, "a thread keeps its stripe")
                seen.withLock { $0.append(stripe) }
                ready.leave()
            }.start()
        }
        ready.wait()
        let stripes = seen.withLock { $0 }
        #expect(Set(stripes).count == 260)
        #expect(stripes.allSatisfy { (0..<512).contains($0) })
        // Another owner's assignment numbers this thread on its own.
        #expect(StripeAssignment(threads: 2).current == 0)
    }

    /// Handles are the series themselves: the same labels give the same handle, and concurrent observations
    /// through it all land in the buckets, the count and the (lock-free) sum.
    @Test func handlesRecordConcurrentlyWithoutLoss() {
        let metrics = MetricsRegistry()
        let histogram = metrics.histogram("h_seconds", help: "h", labels: ["route": "/a"], buckets: [0.5, 2])
        #expect(histogram === metrics.histogram("h_seconds", help: "h", labels: ["route": "/a"]))
        let counter = metrics.counter("c_total", help: "c", labels: ["route": "/a"])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for _ in 0..<1000 {
                histogram.observe(index.isMultiple(of: 2) ? 0.25 : 1)
                counter.increment()
            }
        }
        let text = metrics.render()
        #expect(text.contains("h_seconds_bucket{route=\"/a\",le=\"0.5\"} 4000\n"))
        #expect(text.contains("h_seconds_bucket{route=\"/a\",le=\"2\"} 8000\n"))
        #expect(text.contains("h_seconds_count{route=\"/a\"} 8000\n"))
        #expect(text.contains("h_seconds_sum{route=\"/a\"} 5000\n"))
        #expect(metrics.counterValue("c_total", labels: ["route": "/a"]) == 8000)
    }
}
