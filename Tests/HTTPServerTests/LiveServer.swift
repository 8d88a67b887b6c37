import Glibc
import HTTPServer
import Observability
import TestSupport

/// A handler error that is not `ProblemConvertible`: must become a bare 500.
struct SecretError: Error, CustomStringConvertible {
    var description: String { "SecretError: password=hunter2" }
}

/// The response of `/prepared`, made once for the whole test run (as the association files' are per version).
let preparedGreeting = PreparedResponse(
    status: 200, headers: ["Content-Type": "text/plain", "Cache-Control": "public, max-age=60"],
    body: Array("prepared greeting".utf8))

/// The routes the live tests use.
func testRoutes() -> RouterBuilder {
    var builder = RouterBuilder()
    builder.get("/hello") { _ in .text("hello") }
    builder.get("/prepared") { _ in Response(preparedGreeting) }
    builder.get("/prepared/changed") { _ in
        var response = Response(preparedGreeting)
        response.headers.add("Vary", "Origin")
        return response
    }
    builder.get("/v1/domains/{host}/rules") { request in .text("rules of \(request.parameters["host"]!)") }
    builder.get("/v1/domains/new/rules") { _ in .text("literal") }
    builder.get("/files/{rest*}") { request in .text("rest=\(request.parameters["rest"]!)") }
    builder.get("/echo/path/{p}") { request in .text("\(request.path)|\(request.rawQuery ?? "-")|\(request.parameters["p"]!)") }
    builder.get("/query") { request in
        .text(request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
    }
    builder.post("/echo") { request in Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body) }
    builder.put("/echo") { request in .text("put \(request.body.count)") }
    builder.get("/info") { request in
        .text("\(request.method.rawValue) \(request.remoteAddress) \(request.host ?? "-") \(request.requestID)")
    }
    builder.get("/client") { request in .text("\(request.remoteAddress) \(request.peerAddress) \(request.scheme)") }
    // A slow handler (what the shutdown and busy-connection tests are about): 500 ms, or `ms`.
    builder.get("/sleep") { request in
        let milliseconds = request.queryItems.first { $0.name == "ms" }.flatMap { UInt32($0.value) } ?? 500
        usleep(milliseconds * 1000)
        return .text("slept")
    }
    builder.get("/conflict") { _ in throw Problem.conflict(detail: "already there") }
    builder.get("/secret") { _ in throw SecretError() }
    builder.get("/big") { _ in Response(status: 200, body: Array(repeating: 65, count: 100_000)) }
    return builder
}

/// Starts a server on 127.0.0.1 and a free port with `builder`, runs `body`, shuts it down (even on failure).
func withLiveServer<T>(
    _ configuration: ServerConfiguration = ServerConfiguration(port: 0),
    routes builder: RouterBuilder = testRoutes(),
    metrics: MetricsRegistry = MetricsRegistry(),
    logSink: LogSink = .discard,
    _ body: (Server, Int) throws -> T
) throws -> T {
    let logger = Logger(label: "linkd.http.test", level: .info, sink: logSink)
    let router = Router(builder, logger: logger, metrics: metrics)
    var configuration = configuration
    configuration.port = 0
    let server = Server(configuration: configuration, responder: router, logger: logger, metrics: metrics)
    try server.start()
    defer { server.shutdown(gracePeriod: .seconds(2)) }
    return try body(server, server.port)
}

/// A pthread running `body`, joined with `join()`: tests need real blocking threads, not tasks.
final class TestThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        let box = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(
            &thread, nil,
            { raw in
                let me = Unmanaged<TestThread>.fromOpaque(raw!).takeRetainedValue()
                me.body()
                return nil
            }, box)
        precondition(result == 0, "pthread_create failed")
    }

    func join() { pthread_join(thread, nil) }
}
