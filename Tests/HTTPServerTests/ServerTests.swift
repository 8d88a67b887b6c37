import Glibc
import Synchronization
import Testing
@testable import HTTPServer
import Observability
import TestSupport

@Suite("Server over loopback")
struct ServerTests {
    @Test func servesARoute() throws {
        try withLiveServer { _, port in
            let response = try HTTPTestClient.request(port: port, path: "/hello")
            #expect(response.status == 200)
            #expect(response.text == "hello")
            #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
            #expect(response.headers["Content-Length"] == "5")
            #expect(response.headers["X-Request-ID"]?.count == 32)
        }
    }

    @Test func routingOverTheWire() throws {
        try withLiveServer { _, port in
            #expect(try HTTPTestClient.request(port: port, path: "/v1/domains/a.example/rules").text == "rules of a.example")
            #expect(try HTTPTestClient.request(port: port, path: "/v1/domains/new/rules").text == "literal")
            #expect(try HTTPTestClient.request(port: port, path: "/files/a/b%20c/d.txt").text == "rest=a/b c/d.txt")
            // The raw path and query are preserved; the parameter is decoded.
            let echo = try HTTPTestClient.request(port: port, path: "/echo/path/a%2Fb%20c?x=%41+b&y")
            #expect(echo.text == "/echo/path/a%2Fb%20c|x=%41+b&y|a/b c")
            // Absolute-form request target.
            let absolute = try HTTPTestClient.request(port: port, path: "http://links.example/echo/path/p1?q=1")
            #expect(absolute.text == "/echo/path/p1|q=1|p1")
        }
    }

    @Test func notFoundAndMethodNotAllowedAreProblems() throws {
        try withLiveServer { _, port in
            let missing = try HTTPTestClient.request(port: port, path: "/nope", headers: [("X-Request-ID", "abc-123")])
            #expect(missing.status == 404)
            #expect(missing.headers["Content-Type"] == "application/problem+json")
            #expect(missing.text.contains("\"type\":\"https://linkd.dev/problems/not-found\""))
            #expect(missing.text.contains("\"requestId\":\"abc-123\""))
            #expect(missing.headers["X-Request-ID"] == "abc-123")

            let wrong = try HTTPTestClient.request(port: port, method: "DELETE", path: "/echo")
            #expect(wrong.status == 405)
            #expect(wrong.headers["Allow"] == "OPTIONS, POST, PUT")
            #expect(wrong.headers["Content-Type"] == "application/problem+json")

            let options = try HTTPTestClient.request(port: port, method: "OPTIONS", path: "/hello")
            #expect(options.status == 204)
            #expect(options.headers["Allow"] == "GET, HEAD, OPTIONS")
        }
    }

    @Test func headAnswersGetRoutesWithoutBody() throws {
        try withLiveServer { _, port in
            let client = try HTTPTestClient(port: port)
            let head = try client.request("HEAD", "/big")
            #expect(head.status == 200)
            #expect(head.headers["Content-Length"] == "100000")
            #expect(head.body.isEmpty)
            // The connection is still in sync: no stray body bytes precede the next response.
            let get = try client.request("GET", "/big")
            #expect(get.headers["Content-Length"] == "100000")
            #expect(get.body.count == 100_000)
            let smallHead = try client.request("HEAD", "/hello")
            #expect(smallHead.headers["Content-Length"] == "5")
            #expect(try client.request("GET", "/hello").text == "hello")
            // A prepared response's HEAD is sent the ordinary way: its length, no body.
            let preparedHead = try client.request("HEAD", "/prepared")
            #expect(preparedHead.headers["Content-Length"] == "17" && preparedHead.body.isEmpty)
            #expect(try client.request("GET", "/prepared").text == "prepared greeting")
        }
    }

    @Test func preparedResponsesAreSentAsMade() throws {
        try withLiveServer(ServerConfiguration(threads: 4)) { _, port in
            let client = try HTTPTestClient(port: port)
            for _ in 0..<3 { // one MHD response, queued again and again on a keep-alive connection
                let response = try client.request("GET", "/prepared")
                #expect(response.status == 200)
                #expect(response.text == "prepared greeting")
                #expect(response.headers["Content-Type"] == "text/plain")
                #expect(response.headers["Cache-Control"] == "public, max-age=60")
                #expect(response.headers["Content-Length"] == "17")
                #expect(response.headers["X-Request-ID"] == nil) // nothing in it is particular to one request
            }
            // A request that offers its id gets it back, as from every other response.
            let offered = try client.request("GET", "/prepared", headers: [("X-Request-ID", "cdn-7")])
            #expect(offered.headers["X-Request-ID"] == "cdn-7")
            #expect(offered.text == "prepared greeting")
            #expect(offered.headers["Cache-Control"] == "public, max-age=60")
            // Changed after it was made: sent the ordinary way, with the change and a request id.
            let changed = try client.request("GET", "/prepared/changed")
            #expect(changed.headers["Vary"] == "Origin")
            #expect(changed.headers["Cache-Control"] == "public, max-age=60")
            #expect(changed.headers["X-Request-ID"]?.count == 32)
            #expect(changed.text == "prepared greeting")
            #expect(try client.request("GET", "/prepared").text == "prepared greeting")

            // Many threads queue the one response at once.
            let failures = Atomic<Int>(0)
            let threads = (0..<8).map { _ in
                TestThread {
                    do {
                        let client = try HTTPTestClient(port: port)
                        for _ in 0..<200 where try client.request("GET", "/prepared").text != "prepared greeting" {
                            failures.add(1, ordering: .relaxed)
                        }
                    } catch {
                        failures.add(1, ordering: .relaxed)
                    }
                }
            }
            threads.forEach { $0.join() }
            #expect(failures.load(ordering: .relaxed) == 0)
        }
    }

    @Test func changingAPreparedResponseUnpreparesIt() {
        var response = Response(preparedGreeting)
        #expect(response.prepared === preparedGreeting)
        #expect(response.status == 200 && response.body == Array("prepared greeting".utf8))
        response.headers.add("Vary", "Origin")
        #expect(response.prepared == nil)
        var status = Response(preparedGreeting)
        status.status = 203
        #expect(status.prepared == nil)
        var body = Response(preparedGreeting)
        body.body = []
        #expect(body.prepared == nil)
        // MHD refuses a header value with a line break: such a response is sent the ordinary way (which drops it).
        #expect(PreparedResponse(headers: ["X-Bad": "a\r\nSet-Cookie: x=1"]).handle == nil)
        #expect(preparedGreeting.handle != nil)
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        try withLiveServer { _, port in
            let client = try HTTPTestClient(port: port)
            for index in 0..<500 {
                let response = try client.request("GET", "/query?i=\(index)")
                #expect(response.status == 200)
                #expect(response.text == "i=\(index)")
                #expect(response.headers["Connection"]?.lowercased() != "close")
            }
            #expect(client.isOpen())
            #expect(!client.peerClosed)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try withLiveServer { _, port in
            let client = try HTTPTestClient(port: port)
            var bytes: [UInt8] = []
            for index in 0..<20 { bytes += HTTPTestClient.compose("GET", "/query?n=\(index)") }
            try client.send(bytes)
            for index in 0..<20 {
                #expect(try client.readResponse().text == "n=\(index)")
            }
        }
    }

    @Test func concurrentClients() throws {
        try withLiveServer(ServerConfiguration(threads: 4)) { _, port in
            let failures = Atomic<Int>(0)
            let successes = Atomic<Int>(0)
            let threads = (0..<32).map { worker in
                TestThread {
                    do {
                        let client = try HTTPTestClient(port: port)
                        for index in 0..<100 {
                            let response = try client.request("GET", "/query?w=\(worker)&i=\(index)")
                            if response.status == 200 && response.text == "w=\(worker)&i=\(index)" {
                                successes.add(1, ordering: .relaxed)
                            } else {
                                failures.add(1, ordering: .relaxed)
                            }
                        }
                    } catch {
                        failures.add(1, ordering: .relaxed)
                    }
                }
            }
            threads.forEach { $0.join() }
            #expect(failures.load(ordering: .relaxed) == 0)
            #expect(successes.load(ordering: .relaxed) == 3200)
        }
    }

    @Test func requestBodyIsDeliveredIntact() throws {
        try withLiveServer { _, port in
            var generator = SystemRandomNumberGenerator()
            let body = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let client = try HTTPTestClient(port: port)
            let response = try client.request("POST", "/echo", body: body)
            #expect(response.status == 200)
            #expect(response.body == body)
            // Chunked upload of the same bytes.
            var chunked = Array("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            var offset = 0
            while offset < body.count {
                let size = min(70_000, body.count - offset)
                chunked += Array((String(size, radix: 16) + "\r\n").utf8) + body[offset..<offset + size] + [13, 10]
                offset += size
            }
            chunked += Array("0\r\n\r\n".utf8)
            try client.send(chunked)
            let echoed = try client.readResponse()
            #expect(echoed.status == 200)
            #expect(echoed.body == body)
        }
    }

    @Test func bodyOverTheLimitByContentLength() throws {
        try withLiveServer(ServerConfiguration(maxBodyBytes: 1000)) { _, port in
            let client = try HTTPTestClient(port: port)
            try client.send(HTTPTestClient.compose("POST", "/echo", headers: [("Content-Length", "5000"), ("Expect", "100-continue")]))
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.text.contains("payload-too-large"))
            #expect(response.headers["X-Request-ID"] != nil)
            // At the limit is fine.
            let ok = try HTTPTestClient.request(port: port, method: "POST", path: "/echo", body: Array(repeating: 1, count: 1000))
            #expect(ok.status == 200)
            #expect(ok.body.count == 1000)
        }
    }

    /// A route with a body limit of its own (a bulk upload) takes more than the server's; the others do not.
    @Test func routeBodyLimitRaisesTheLimitForThatRouteOnly() throws {
        var configuration = ServerConfiguration(maxBodyBytes: 1000)
        configuration.routeBodyLimits = [RouteBodyLimit(method: .POST, path: "/echo", maxBytes: 4000)]
        var routes = RouterBuilder()
        routes.post("/echo") { Response(status: 200, body: $0.body) }
        routes.post("/other") { Response(status: 200, body: $0.body) }
        try withLiveServer(configuration, routes: routes) { _, port in
            let ok = try HTTPTestClient.request(port: port, method: "POST", path: "/echo", body: Array(repeating: 1, count: 4000))
            #expect(ok.status == 200 && ok.body.count == 4000)
            let over = try HTTPTestClient.request(port: port, method: "POST", path: "/echo", body: Array(repeating: 1, count: 4001))
            #expect(over.status == 413 && over.text.contains("4000 bytes"), "\(over.text)")
            let other = try HTTPTestClient.request(port: port, method: "POST", path: "/other", body: Array(repeating: 1, count: 1001))
            #expect(other.status == 413)
            let query = try HTTPTestClient.request(port: port, method: "POST", path: "/echo?x=1", body: Array(repeating: 1, count: 2000))
            #expect(query.status == 200)
        }
    }

    /// The client sends its whole oversized body without waiting: it must still read the 413, not a reset.
    @Test(arguments: [true, false])
    func bodyOverTheLimitSentEagerly(turbo: Bool) throws {
        try withLiveServer(ServerConfiguration(maxBodyBytes: 1000, turbo: turbo)) { _, port in
            for _ in 0..<5 {
                let client = try HTTPTestClient(port: port, timeout: 3)
                try? client.send(HTTPTestClient.compose("POST", "/echo", body: Array(repeating: 9, count: 5_000_000)))
                let response = try client.readResponse()
                #expect(response.status == 413)
            }
        }
    }

    @Test func bodyOverTheLimitWhenChunked() throws {
        try withLiveServer(ServerConfiguration(maxBodyBytes: 1000)) { _, port in
            let client = try HTTPTestClient(port: port)
            var request = Array("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            for _ in 0..<3 { request += Array("258\r\n".utf8) + Array(repeating: 7, count: 600) + [13, 10] }
            request += Array("0\r\n\r\n".utf8)
            try client.send(request)
            let response = try client.readResponse()
            #expect(response.status == 413)
            #expect(response.text.contains("\"status\":413"))
        }
    }

    @Test func uriTooLong() throws {
        try withLiveServer(ServerConfiguration(maxURIBytes: 1000)) { _, port in
            let response = try HTTPTestClient.request(port: port, path: "/hello?q=" + String(repeating: "a", count: 2000))
            #expect(response.status == 414)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.text.contains("uri-too-long"))
            #expect(try HTTPTestClient.request(port: port, path: "/hello?q=" + String(repeating: "a", count: 900)).status == 200)
        }
    }

    @Test func headersTooLarge() throws {
        try withLiveServer(ServerConfiguration(maxHeaderBytes: 4000)) { _, port in
            let response = try HTTPTestClient.request(
                port: port, path: "/hello", headers: [("X-Filler", String(repeating: "b", count: 5000))])
            #expect(response.status == 431)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.text.contains("headers-too-large"))
            let many = (0..<100).map { ("X-Field-\($0)", String(repeating: "c", count: 50)) }
            #expect(try HTTPTestClient.request(port: port, path: "/hello", headers: many).status == 431)
            #expect(try HTTPTestClient.request(port: port, path: "/hello", headers: [("X-Small", "1")]).status == 200)
        }
    }

    /// With the default limits, requests just under both limits pass and just over get our problem+json,
    /// not MHD's own answer: its memory pool is sized above our limits.
    @Test func defaultLimitsAreOursNotMHDs() throws {
        try withLiveServer { _, port in
            let longURI = "/hello?q=" + String(repeating: "a", count: 8192 - 9)
            let fullHeaders = (0..<16).map { ("X-Fill-\($0)", String(repeating: "h", count: 1000)) } // ~16.2k with Host/Connection
            let fits = try HTTPTestClient.request(
                port: port, path: longURI, headers: Array(fullHeaders.prefix(15)) + [("X-Rest", String(repeating: "r", count: 800))])
            #expect(fits.status == 200)
            let uri = try HTTPTestClient.request(port: port, path: longURI + "a")
            #expect(uri.status == 414)
            #expect(uri.headers["Content-Type"] == "application/problem+json")
            let headers = try HTTPTestClient.request(
                port: port, path: longURI, headers: fullHeaders + [("X-More", String(repeating: "m", count: 1000))])
            #expect(headers.status == 431)
            #expect(headers.headers["Content-Type"] == "application/problem+json")
        }
    }

    /// Far beyond MHD's connection memory pool MHD answers by itself: the shim makes that answer problem+json.
    @Test func hugeHeadersAndURIsAreRefusedByMHD() throws {
        try withLiveServer { server, port in
            let headers = try HTTPTestClient.request(
                port: port, path: "/hello", headers: [("X-Filler", String(repeating: "b", count: 200_000))])
            #expect(headers.status == 431)
            #expect(headers.headers["Content-Type"] == "application/problem+json")
            let uri = try HTTPTestClient.request(port: port, path: "/hello?q=" + String(repeating: "a", count: 200_000))
            #expect(uri.status == 414)
            #expect(uri.headers["Content-Type"] == "application/problem+json")
            #expect(uri.text.contains("uri-too-long"))
            // MHD told us those requests completed: nothing is left in flight (else shutdown would wait).
            #expect(eventually { server.inFlightRequests == 0 })
        }
    }

    @Test func requestIDEchoGenerationAndRejection() throws {
        try withLiveServer { _, port in
            let echoed = try HTTPTestClient.request(port: port, path: "/info", headers: [("X-Request-ID", "req_1.2-3")])
            #expect(echoed.headers["X-Request-ID"] == "req_1.2-3")
            #expect(echoed.text.hasSuffix(" req_1.2-3"))

            let generated = try HTTPTestClient.request(port: port, path: "/info")
            let id = try #require(generated.headers["X-Request-ID"])
            #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))

            for hostile in [String(repeating: "a", count: 129), "a b", "x\"y", "<script>", "abc%0d%0aSet-Cookie:x"] {
                let response = try HTTPTestClient.request(port: port, path: "/info", headers: [("X-Request-ID", hostile)])
                #expect(response.headers["X-Request-ID"] != hostile)
                #expect(response.headers["X-Request-ID"]?.count == 32)
                #expect(response.headers["Set-Cookie"] == nil)
            }
            // A raw CR inside the header value: the server must not split it into a header of its own.
            let client = try HTTPTestClient(port: port)
            try client.send("GET /info HTTP/1.1\r\nHost: x\r\nX-Request-ID: abc\rSet-Cookie: x=1\r\nConnection: close\r\n\r\n")
            let injected = try client.readResponse()
            #expect(injected.headers["Set-Cookie"] == nil)
            #expect(injected.headers["X-Request-ID"]?.contains("Set-Cookie") != true)
        }
    }

    @Test func requestInfo() throws {
        try withLiveServer { _, port in
            let response = try HTTPTestClient.request(
                port: port, path: "/info", headers: [("Host", "Links.Example.COM:8443"), ("X-Request-ID", "r1")])
            #expect(response.text == "GET 127.0.0.1 links.example.com r1")
        }
    }

    @Test func queryParsingOverTheWire() throws {
        try withLiveServer { _, port in
            let response = try HTTPTestClient.request(port: port, path: "/query?a=1&b=x+y&a=%2F%e2%82%ac&bad=%zz%4&empty=&flag")
            #expect(response.text == "a=1&b=x y&a=/€&bad=%zz%4&empty=&flag=")
        }
    }

    @Test func handlerErrorsAreMapped() throws {
        let sink = InMemoryLogSink()
        try withLiveServer(logSink: sink.sink) { _, port in
            let conflict = try HTTPTestClient.request(port: port, path: "/conflict")
            #expect(conflict.status == 409)
            #expect(conflict.text.contains("\"detail\":\"already there\""))

            let secret = try HTTPTestClient.request(port: port, path: "/secret")
            #expect(secret.status == 500)
            #expect(secret.headers["Content-Type"] == "application/problem+json")
            #expect(!secret.text.contains("hunter2"))
            #expect(!secret.text.contains("SecretError"))
        }
        #expect(sink.entries.contains { $0.level == .error && ($0.metadata["error"] ?? "").contains("hunter2") })
    }

    @Test func gracefulShutdownFinishesInFlightRequest() throws {
        let logger = Logger(label: "test", sink: .discard)
        let router = Router(testRoutes(), logger: logger, metrics: MetricsRegistry())
        let server = Server(configuration: ServerConfiguration(port: 0), responder: router, logger: logger)
        try server.start()
        let port = server.port
        let result = Mutex<Result<TestResponse, HTTPTestClientError>?>(nil)
        let client = TestThread {
            do {
                let response = try HTTPTestClient.request(port: port, path: "/sleep")
                result.withLock { $0 = .success(response) }
            } catch let error as HTTPTestClientError {
                result.withLock { $0 = .failure(error) }
            } catch {}
        }
        // Wait until the request is being handled.
        try #require(eventually { server.inFlightRequests > 0 }, "the slow request never started")
        #expect(server.inFlightRequests == 1)
        let started = ContinuousClock.now
        server.shutdown(gracePeriod: .seconds(30))
        let took = started.duration(to: .now)
        client.join()
        let response = try #require(try result.withLock { $0 }?.get())
        #expect(response.status == 200)
        #expect(response.text == "slept")
        #expect(took < .seconds(10), "the handler's 500 ms, not the grace period (the bound allows for a busy machine)")
        #expect(throws: HTTPTestClientError.self) { try HTTPTestClient(port: port, timeout: 1) }
        server.shutdown() // idempotent
    }

    /// While draining, requests on already-open keep-alive connections are still answered, with `Connection: close`.
    @Test func drainingAsksClientsToClose() throws {
        let logger = Logger(label: "test", sink: .discard)
        let server = Server(
            configuration: ServerConfiguration(port: 0), responder: Router(testRoutes(), logger: logger, metrics: MetricsRegistry()),
            logger: logger)
        try server.start()
        let port = server.port
        let idle = try HTTPTestClient(port: port)
        #expect(try idle.request("GET", "/hello").headers["Connection"] == nil)
        let idlePrepared = try HTTPTestClient(port: port)
        #expect(try idlePrepared.request("GET", "/prepared").headers["Connection"] == nil)
        // MHD reports a request completed after its response is sent, so the client can see the response first:
        // wait for that, or the count awaited below could be this request's, the uploader's connection not yet
        // accepted, and shutting the listening socket down would reset it.
        try #require(eventually { server.inFlightRequests == 0 }, "the first request never completed")
        // A request kept in flight by its unfinished body: it holds the drain open without blocking a worker
        // thread (a handler that blocked could share its thread with the idle connection and stall it).
        let uploader = try HTTPTestClient(port: port)
        try uploader.send(HTTPTestClient.compose("PUT", "/echo", headers: [("Content-Length", "3")]))
        try #require(eventually { server.inFlightRequests > 0 }, "the unfinished request never started")
        let stopper = TestThread { server.shutdown(gracePeriod: .seconds(30)) }
        try #require(eventually { server.isDraining })
        let late = try idle.request("GET", "/hello")
        #expect(late.status == 200)
        #expect(late.headers["Connection"]?.lowercased() == "close")
        #expect(idle.waitForClose(timeout: 5))
        let latePrepared = try idlePrepared.request("GET", "/prepared")
        #expect(latePrepared.text == "prepared greeting")
        #expect(latePrepared.headers["Connection"]?.lowercased() == "close")
        #expect(idlePrepared.waitForClose(timeout: 5))
        try uploader.send([1, 2, 3])
        let finished = try uploader.readResponse()
        #expect(finished.status == 200)
        #expect(finished.text == "put 3")
        stopper.join()
        server.shutdown() // a second caller returns at once: already stopped
    }

    @Test func expectContinue() throws {
        try withLiveServer { _, port in
            let client = try HTTPTestClient(port: port)
            try client.send(HTTPTestClient.compose("PUT", "/echo", headers: [("Content-Length", "3"), ("Expect", "100-continue")]))
            let interim = try client.readResponse()
            #expect(interim.status == 100)
            try client.send([1, 2, 3])
            let final = try client.readResponse()
            #expect(final.status == 200)
            #expect(final.text == "put 3")
        }
    }

    @Test func lifecycleEdges() throws {
        let logger = Logger(label: "test", sink: .discard)
        let server = Server(
            configuration: ServerConfiguration(port: 0), responder: Router(testRoutes(), logger: logger, metrics: MetricsRegistry()),
            logger: logger)
        server.shutdown() // before start: nothing to do
        #expect(server.port == 0)
        try server.start()
        #expect(server.port > 0)
        #expect { try server.start() } throws: { ($0 as? HTTPServerError)?.code == .alreadyStarted }
        let port = server.port
        let stoppers = (0..<4).map { _ in TestThread { server.shutdown() } }
        stoppers.forEach { $0.join() }
        #expect(throws: HTTPTestClientError.self) { try HTTPTestClient(port: port, timeout: 1) }
        #expect { try server.start() } throws: { ($0 as? HTTPServerError)?.code == .alreadyStarted }
    }

    @Test func shutdownClosesIdleKeepAliveConnections() throws {
        let logger = Logger(label: "test", sink: .discard)
        let server = Server(
            configuration: ServerConfiguration(port: 0), responder: Router(testRoutes(), logger: logger, metrics: MetricsRegistry()),
            logger: logger)
        try server.start()
        let client = try HTTPTestClient(port: server.port)
        #expect(try client.request("GET", "/hello").status == 200)
        let started = ContinuousClock.now
        server.shutdown(gracePeriod: .seconds(5))
        #expect(started.duration(to: .now) < .seconds(1)) // idle connections don't hold shutdown
        #expect(client.waitForClose(timeout: 2))
    }

    @Test func bindFailures() throws {
        let logger = Logger(label: "test", sink: .discard)
        let router = Router(RouterBuilder(), logger: logger, metrics: MetricsRegistry())
        let bad = Server(configuration: ServerConfiguration(host: "not-an-address", port: 0), responder: router, logger: logger)
        #expect { try bad.start() } throws: { ($0 as? HTTPServerError)?.code == .invalidAddress }

        let notLocal = Server(configuration: ServerConfiguration(host: "192.0.2.1", port: 0), responder: router, logger: logger)
        #expect { try notLocal.start() } throws: { ($0 as? HTTPServerError)?.code == .bindFailed }

        try withLiveServer { _, port in
            let second = Server(configuration: ServerConfiguration(port: port), responder: router, logger: logger)
            #expect { try second.start() } throws: { error in
                guard let error = error as? HTTPServerError else { return false }
                return error.code == .bindFailed && error.description.contains("127.0.0.1:\(port)")
            }
        }
    }

    @Test func listensOnIPv6Loopback() throws {
        let logger = Logger(label: "test", sink: .discard)
        let server = Server(
            configuration: ServerConfiguration(host: "::1", port: 0),
            responder: Router(testRoutes(), logger: logger, metrics: MetricsRegistry()), logger: logger)
        try server.start()
        defer { server.shutdown() }
        let client = try HTTPTestClient(port: server.port, host: "::1")
        let response = try client.request("GET", "/info", headers: [("Host", "[::1]:\(server.port)"), ("X-Request-ID", "v6")])
        #expect(response.text == "GET ::1 ::1 v6")
    }

    @Test func metricsAreRecorded() throws {
        let metrics = MetricsRegistry()
        try withLiveServer(metrics: metrics) { _, port in
            for _ in 0..<3 { _ = try HTTPTestClient.request(port: port, path: "/v1/domains/x/rules") }
            _ = try HTTPTestClient.request(port: port, path: "/missing")
            _ = try HTTPTestClient.request(port: port, method: "DELETE", path: "/hello")
            _ = try HTTPTestClient.request(port: port, method: "POST", path: "/echo", body: Array(repeating: 0, count: 2 << 20))
        }
        #expect(metrics.counterValue("linkd_http_requests_total", labels: ["route": "rejected", "method": "POST", "status": "413"]) == 1)
        #expect(
            metrics.counterValue(
                "linkd_http_requests_total", labels: ["route": "/v1/domains/{host}/rules", "method": "GET", "status": "200"]) == 3)
        #expect(metrics.counterValue("linkd_http_requests_total", labels: ["route": "unmatched", "method": "GET", "status": "404"]) == 1)
        #expect(metrics.counterValue("linkd_http_requests_total", labels: ["route": "/hello", "method": "DELETE", "status": "405"]) == 1)
        let text = metrics.render()
        #expect(text.contains("linkd_http_request_duration_seconds_count{route=\"/v1/domains/{host}/rules\"} 3"))
    }

    @Test func idleConnectionTimesOut() throws {
        try withLiveServer(ServerConfiguration(connectionTimeout: 1)) { server, port in
            let client = try HTTPTestClient(port: port)
            #expect(try client.request("GET", "/hello").status == 200)
            #expect(client.waitForClose(timeout: 4))
            // A client that never sends a full request is dropped too.
            let slow = try HTTPTestClient(port: port)
            try slow.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Half")
            #expect(slow.waitForClose(timeout: 4))
            #expect(eventually { server.inFlightRequests == 0 })
        }
    }

    /// Clients vanishing mid-headers or mid-body leave no request state behind (shutdown would wait for it).
    @Test func abandonedRequestsAreReleased() throws {
        try withLiveServer { server, port in
            let midHeaders = try HTTPTestClient(port: port)
            try midHeaders.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Partial: ")
            let midBody = try HTTPTestClient(port: port)
            try midBody.send(
                HTTPTestClient.compose("POST", "/echo", headers: [("Content-Length", "1000")]) + Array(repeating: 1, count: 10))
            #expect(eventually { server.inFlightRequests == 2 })
            midHeaders.close()
            midBody.close()
            #expect(eventually { server.inFlightRequests == 0 })
        }
    }

    /// `::` listens dual-stack; IPv4 clients are reported as plain IPv4 addresses.
    @Test func dualStackReportsIPv4Clients() throws {
        let logger = Logger(label: "test", sink: .discard)
        let server = Server(
            configuration: ServerConfiguration(host: "::", port: 0),
            responder: Router(testRoutes(), logger: logger, metrics: MetricsRegistry()), logger: logger)
        try server.start()
        defer { server.shutdown() }
        let response = try HTTPTestClient.request(port: server.port, path: "/info", headers: [("X-Request-ID", "v4")])
        #expect(response.text == "GET 127.0.0.1 localhost v4")
        let v6 = try HTTPTestClient(port: server.port, host: "::1").request("GET", "/info", headers: [("X-Request-ID", "v6")])
        #expect(v6.text == "GET ::1 localhost v6")
    }

    @Test func accessLogLine() throws {
        let sink = InMemoryLogSink()
        try withLiveServer(logSink: sink.sink) { _, port in
            _ = try HTTPTestClient.request(port: port, path: "/hello?x=1", headers: [("X-Request-ID", "log-1")])
        }
        let line = try #require(sink.entries.first { $0.message == "request" && $0.metadata["request.id"] == "log-1" })
        #expect(line.level == .info)
        #expect(line.metadata["http.method"] == "GET")
        #expect(line.metadata["http.path"] == "/hello")
        #expect(line.metadata["http.status"] == "200")
        #expect(Double(line.metadata["http.duration_ms"] ?? "") != nil)
    }
}
