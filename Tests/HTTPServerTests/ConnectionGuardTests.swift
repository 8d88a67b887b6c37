import Glibc
@testable import HTTPServer
import Observability
import Synchronization
import Testing
import TestSupport

/// Slow, idle and piled-up connections over real sockets on 127.0.0.1 (issue 17, item 3).
@Suite("Connection deadlines and limit")
struct ConnectionGuardTests {
    /// `count` connections, each sent `prefix`, left open.
    private func openConnections(_ count: Int, port: Int, sending prefix: String = "") throws -> [HTTPTestClient] {
        try (0..<count).map { _ in
            let client = try HTTPTestClient(port: port, timeout: 5)
            if !prefix.isEmpty { try client.send(prefix) }
            return client
        }
    }

    /// Times one `GET /hello` on a new connection; nil when it did not get a 200.
    private func timedHello(port: Int) -> Double? {
        let start = ContinuousClock.now
        guard let response = try? HTTPTestClient.request(port: port, path: "/hello", timeout: 3), response.status == 200 else { return nil }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private func dropped(_ metrics: MetricsRegistry, _ reason: String) -> Double {
        metrics.counterValue("linkd_http_connections_dropped_total", labels: ["reason": reason])
    }

    /// More slow sockets than the limit, each sending one header byte a second: a normal client is still served
    /// within a second, and the slow sockets are closed once the header deadline passes.
    @Test func slowSocketsBeyondTheLimitDoNotLockClientsOut() throws {
        let metrics = MetricsRegistry()
        let configuration = ServerConfiguration(headerTimeout: 3, connectionLimit: 64)
        try withLiveServer(configuration, metrics: metrics) { server, port in
            let slow = try openConnections(80, port: port, sending: "G")
            let stop = StopFlag()
            let sockets = UnsafeSendableBox(slow)
            let trickler = TestThread {
                let request = Array("ET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n".utf8)
                var offset = 0
                while !stop.isSet && offset < request.count {
                    usleep(1_000_000) // the slow client's pace: what is tested, not a wait
                    for client in sockets.value { try? client.send([request[offset]]) }
                    offset += 1
                }
            }
            defer {
                stop.set()
                trickler.join()
            }
            #expect(eventually { dropped(metrics, "evicted_unfinished") >= 16 }, "the server took the slow sockets in")
            let elapsed = try #require(timedHello(port: port), "a normal client was locked out")
            #expect(elapsed < 1.0)
            #expect(server.openConnections <= 64)
            #expect(dropped(metrics, "evicted_unfinished") >= 16)
            // The rest are closed at the header deadline (3 s from their accept), though they keep sending (their
            // requests would be complete after 40 s; the bound allows for a busy machine).
            let closed = slow.filter { $0.waitForClose(timeout: 9) }.count
            #expect(closed == slow.count)
            #expect(dropped(metrics, "header_timeout") >= 1)
            #expect(timedHello(port: port) != nil)
        }
    }

    /// Idle connections beyond the limit, silent ones and keep-alive ones after a request: new clients are
    /// still served, the oldest idle connections making room.
    @Test func idleConnectionsBeyondTheLimitMakeRoom() throws {
        let metrics = MetricsRegistry()
        let configuration = ServerConfiguration(connectionTimeout: 30, headerTimeout: 30, connectionLimit: 64)
        var kept: [HTTPTestClient] = []
        try withLiveServer(configuration, metrics: metrics) { server, port in
            let silent = try openConnections(40, port: port)
            let start = ContinuousClock.now
            var served = 0
            for _ in 0..<40 {
                let client = try HTTPTestClient(port: port, timeout: 1)
                if (try? client.request("GET", "/hello"))?.status == 200 { served += 1 }
                kept.append(client)
            }
            #expect(served == 40)
            #expect(ContinuousClock.now - start < .seconds(2))
            #expect(
                eventually { dropped(metrics, "evicted_idle") + dropped(metrics, "evicted_unfinished") >= 16 },
                "the server took them all in")
            for _ in 0..<5 {
                let elapsed = try #require(timedHello(port: port), "a normal client was locked out")
                #expect(elapsed < 1.0)
            }
            #expect(server.openConnections <= 64)
            #expect(dropped(metrics, "evicted_idle") + dropped(metrics, "evicted_unfinished") >= 16)
            withExtendedLifetime(silent) {}
        }
    }

    /// Trickling bytes does not extend the deadlines: the header deadline counts from the accept (first request)
    /// or the request line (later keep-alive requests), the body deadline from the end of the headers.
    @Test func deadlinesHoldAgainstTrickling() throws {
        let metrics = MetricsRegistry()
        let configuration = ServerConfiguration(connectionTimeout: 30, headerTimeout: 1, bodyTimeout: 1)
        try withLiveServer(configuration, metrics: metrics) { _, port in
            let header = try HTTPTestClient(port: port, timeout: 5)
            let body = try HTTPTestClient(port: port, timeout: 5)
            try body.send(HTTPTestClient.compose("POST", "/echo", headers: [("Content-Length", "100")]))
            let later = try HTTPTestClient(port: port, timeout: 5)
            #expect(try later.request("GET", "/hello").status == 200)
            try later.send("GET /hello HTTP/1.1\r\n")
            let start = ContinuousClock.now
            var closed: [Bool] = [false, false, false]
            // Trickling never ends, so a deadline it extended would never pass: the bounds only allow for a busy machine.
            while ContinuousClock.now - start < .seconds(15) && closed.contains(false) {
                for (index, client) in [header, body, later].enumerated() where !closed[index] {
                    try? client.send(index == 1 ? "x" : "X") // a byte every 100 ms to each
                    closed[index] = !client.isOpen()
                }
                usleep(100_000) // the trickle's pace: what is tested, not a wait
            }
            let elapsed = ContinuousClock.now - start
            #expect(closed == [true, true, true])
            #expect(elapsed < .seconds(10))
            #expect(dropped(metrics, "header_timeout") == 2)
            #expect(dropped(metrics, "body_timeout") == 1)
        }
    }

    /// More slow bodies than the limit, each sending one body byte a second (issue 27, item 2): a normal client is
    /// still served within a second, the slow bodies making room, and they are closed once they fall below the
    /// minimum rate past its grace, long before the body deadline.
    @Test func slowBodiesBeyondTheLimitDoNotLockClientsOut() throws {
        let metrics = MetricsRegistry()
        var configuration = ServerConfiguration(bodyTimeout: 30, connectionLimit: 64)
        configuration.bodyMinimumRate = 100
        configuration.bodyRateGrace = 2
        try withLiveServer(configuration, metrics: metrics) { server, port in
            let slow = try openConnections(80, port: port, sending: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\na")
            let stop = StopFlag()
            let sockets = UnsafeSendableBox(slow)
            let trickler = TestThread {
                while !stop.isSet {
                    usleep(1_000_000) // the slow bodies' pace: what is tested, not a wait
                    for client in sockets.value { try? client.send("b") }
                }
            }
            defer {
                stop.set()
                trickler.join()
            }
            #expect(eventually { dropped(metrics, "evicted_unfinished") >= 16 }, "the server took the slow bodies in")
            for _ in 0..<3 {
                let elapsed = try #require(timedHello(port: port), "a normal client was locked out")
                #expect(elapsed < 1.0)
            }
            #expect(server.openConnections <= 64)
            #expect(dropped(metrics, "evicted_unfinished") >= 16)
            // The rest are closed past the grace (2 s from their body's start), though they keep sending, long before
            // the body deadline (30 s; the bound allows for a busy machine).
            let closed = slow.filter { $0.waitForClose(timeout: 15) }.count
            #expect(closed == slow.count)
            #expect(dropped(metrics, "slow_body") >= 1)
            #expect(dropped(metrics, "body_timeout") == 0)
            #expect(timedHello(port: port) != nil)
        }
    }

    /// Bodies sent at or above the minimum rate are not closed for it, and at the limit a share of the
    /// connections stays for new clients: the slowest body makes room once bodies hold more than their share.
    @Test func bodiesAtTheRateKeepAShareForNewClients() throws {
        let metrics = MetricsRegistry()
        var configuration = ServerConfiguration(bodyTimeout: 30, connectionLimit: 16)
        configuration.bodyMinimumRate = 10
        configuration.bodyRateGrace = 1
        try withLiveServer(configuration, metrics: metrics) { server, port in
            let uploads = try openConnections(16, port: port, sending: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
            let stop = StopFlag()
            let sockets = UnsafeSendableBox(uploads)
            let sender = TestThread {
                while !stop.isSet {
                    usleep(100_000) // the senders' pace: what is tested, not a wait
                    for client in sockets.value { try? client.send(String(repeating: "b", count: 10)) } // 100 bytes a second
                }
            }
            defer {
                stop.set()
                sender.join()
            }
            // Past the grace (1 s) at the rate: that nothing is closed for it is what is tested, over this time.
            usleep(1_500_000)
            #expect(dropped(metrics, "slow_body") == 0)
            let elapsed = try #require(timedHello(port: port), "a normal client was locked out")
            #expect(elapsed < 1.0)
            #expect(dropped(metrics, "evicted_unfinished") >= 1)
            #expect(dropped(metrics, "refused") == 0)
            #expect(server.openConnections <= 16)
        }
    }

    /// At the limit, the body that makes room is the one read longest below the minimum rate, not a body that
    /// has just started (no byte yet: the slowest so far, but not yet given its chance).
    @Test func aNewBodyIsNotEvictedBeforeOldSlowOnes() throws {
        let metrics = MetricsRegistry()
        let configuration = ServerConfiguration(bodyTimeout: 30, connectionLimit: 16) // bodies' share: 14
        try withLiveServer(configuration, metrics: metrics) { server, port in
            let slow = try openConnections(15, port: port, sending: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\na")
            // The old bodies age below the rate: what sets them apart from the new one, not a wait for a condition.
            usleep(1_000_000)
            let upload = try HTTPTestClient(port: port, timeout: 3)
            try upload.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n")
            #expect(eventually { server.inFlightRequests == 16 }, "the new body started")
            let elapsed = try #require(timedHello(port: port), "a normal client was locked out")
            #expect(elapsed < 1.0)
            #expect(dropped(metrics, "evicted_unfinished") == 1)
            try upload.send("hello")
            #expect(try upload.readResponse().text == "hello")
            #expect(slow.filter { !$0.isOpen() }.count == 1)
        }
    }

    /// A connection whose request is being processed, or whose body is being read within the bodies' share, is
    /// never closed to make room: when every connection is such a busy one, the new one is answered 503
    /// problem+json, and the busy requests still complete.
    @Test func busyConnectionsAreNotEvicted() throws {
        let metrics = MetricsRegistry()
        let configuration = ServerConfiguration(threads: 4, bodyTimeout: 30, connectionLimit: 3) // bodies' share: 2
        try withLiveServer(configuration, metrics: metrics) { server, port in
            let uploads = try openConnections(2, port: port, sending: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")
            let sleeper = try HTTPTestClient(port: port, timeout: 30)
            try sleeper.send("GET /sleep?ms=5000 HTTP/1.1\r\nHost: x\r\n\r\n") // its handler runs for 5 s
            #expect(eventually { server.inFlightRequests == 3 }, "the uploads and the sleeper started")
            let refused = try HTTPTestClient(port: port, timeout: 3).readResponse()
            #expect(refused.status == 503)
            #expect(refused.headers["Content-Type"] == "application/problem+json")
            #expect(refused.text.contains("\"status\":503"))
            #expect(refused.headers["Retry-After"] == "1")
            for upload in uploads {
                try upload.send("cdefghij")
                #expect(try upload.readResponse().body == Array("abcdefghij".utf8))
            }
            #expect(try sleeper.readResponse().text == "slept")
            #expect(dropped(metrics, "refused") == 1)
            #expect(server.openConnections == 3)
        }
    }

    /// `/metrics` shows the open connections.
    @Test func openConnectionsAreAGauge() throws {
        let metrics = MetricsRegistry()
        try withLiveServer(metrics: metrics) { _, port in
            let clients = try openConnections(3, port: port)
            #expect(eventually { metrics.render().contains("linkd_http_connections_open 3") })
            withExtendedLifetime(clients) {}
        }
    }
}

/// A flag a test sets to stop a `TestThread`.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}

/// Moves test-only non-Sendable values into a `TestThread`; the test reads them only after joining.
final class UnsafeSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
