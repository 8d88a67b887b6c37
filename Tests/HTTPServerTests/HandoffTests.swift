import Dispatch
import Foundation
import HTTPServer
import Observability
import Testing
import TestSupport

/// Requests that would wait run on the `Handoff`'s threads, their connections suspended meanwhile: the worker goes
/// on serving (docs/FAULTS.md, "A stalled database").
@Suite("Handing off requests that would wait")
struct HandoffTests {
    /// With one worker, a request waiting on a handoff thread holds no one up: another connection is served at once;
    /// the waiting one gets the answer made on the handoff thread (the worker's is discarded, and counted nowhere),
    /// and its connection serves its next request as usual.
    @Test(.timeLimit(.minutes(1)))
    func aRequestThatWaitsHoldsNoWorker() throws {
        let handoff = Handoff(threads: 2)
        let release = DispatchSemaphore(value: 0)
        var builder = RouterBuilder()
        builder.get("/fast") { _ in .text("fast") }
        builder.get("/wait") { _ in
            guard handoff.mayWait() else { return .text("answered on the worker") }
            _ = release.wait(timeout: .now() + 20)
            return .text("answered after the wait")
        }
        let metrics = MetricsRegistry()
        let logger = Logger(label: "linkd.http.test", level: .critical, sink: .discard)
        let router = Router(builder, logger: logger, metrics: metrics, handoff: handoff)
        let server = Server(
            configuration: ServerConfiguration(port: 0, threads: 1), responder: router, logger: logger, metrics: metrics,
            handoff: handoff)
        try server.start()
        defer { server.shutdown(gracePeriod: .seconds(2)) }

        let waiting = try HTTPTestClient(port: server.port, timeout: 20)
        defer { waiting.close() }
        try waiting.send(HTTPTestClient.compose("GET", "/wait", headers: [("Host", "localhost")]))
        #expect(waitUntil { server.inFlightRequests == 1 })
        for _ in 0..<5 {
            let started = Date()
            let fast = try HTTPTestClient.request(port: server.port, path: "/fast", timeout: 5)
            #expect(fast.text == "fast")
            #expect(Date().timeIntervalSince(started) < 0.5, "the one worker is free")
        }
        release.signal()
        let waited = try waiting.readResponse()
        #expect(waited.status == 200)
        #expect(waited.text == "answered after the wait")
        #expect(try waiting.request("GET", "/fast", headers: [("Host", "localhost")]).text == "fast", "the connection goes on")
        #expect(metrics.counterValue("linkd_http_requests_total", labels: ["route": "/wait", "method": "GET", "status": "200"]) == 1)
    }

    private func waitUntil(seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return false
    }
}
