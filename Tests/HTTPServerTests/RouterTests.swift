import Synchronization
import Testing
@testable import HTTPServer
import Observability

/// Adds a header to every response and can short-circuit `OPTIONS`, like the CORS middleware will.
struct TagMiddleware: Middleware {
    let tag: String
    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        var response = try next(request)
        response.headers.add("X-Tag", tag)
        return response
    }
}

struct DenyMiddleware: Middleware {
    func handle(_ request: Request, next: (Request) throws -> Response) throws -> Response {
        if request.headers["Authorization"] == nil { throw Problem.unauthorized }
        return try next(request)
    }
}

@Suite("Router")
struct RouterTests {
    let logs = InMemoryLogSink()
    let metrics = MetricsRegistry()

    func router(_ configure: (inout RouterBuilder) -> Void) -> Router {
        var builder = RouterBuilder()
        configure(&builder)
        return Router(builder, logger: Logger(label: "test", sink: logs.sink), metrics: metrics)
    }

    func get(_ router: Router, _ path: String, method: HTTPMethod = .GET, headers: HTTPHeaders = .init()) -> Response {
        router.respond(to: Request(method: method, path: path, headers: headers))
    }

    func text(_ response: Response) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func literalBeatsParameter() {
        let router = router {
            $0.get("/v1/apps/{id}") { .text("param \($0.parameters["id"]!)") }
            $0.get("/v1/apps/new") { _ in .text("literal") }
        }
        #expect(text(get(router, "/v1/apps/new")) == "literal")
        #expect(text(get(router, "/v1/apps/42")) == "param 42")
    }

    @Test func backtracksFromALiteralDeadEnd() {
        let router = router {
            $0.get("/a/b/c") { _ in .text("abc") }
            $0.get("/a/{x}/d") { .text("x=\($0.parameters["x"]!)") }
        }
        #expect(text(get(router, "/a/b/d")) == "x=b")
        #expect(text(get(router, "/a/b/c")) == "abc")
    }

    @Test(arguments: [
        ("/files", ""),
        ("/files/", ""),
        ("/files/a", "a"),
        ("/files/a/b/c.txt", "a/b/c.txt"),
        ("/files/a%2Fb/%E2%82%AC", "a/b/€"),
    ])
    func restCapturesRemainder(path: String, expected: String) {
        let router = router { $0.get("/files/{rest*}") { .text($0.parameters["rest"]!) } }
        let response = get(router, path)
        #expect(response.status == 200)
        #expect(text(response) == expected)
    }

    @Test func parametersAreDecodedAndRawPathIsKept() {
        let router = router {
            $0.get("/v1/domains/{host}/rules/{name}") { request in
                .text("\(request.parameters["host"]!)|\(request.parameters["name"]!)|\(request.path)")
            }
        }
        #expect(text(get(router, "/v1/domains/a.example/rules/a%20b+c")) == "a.example|a b+c|/v1/domains/a.example/rules/a%20b+c")
        // Malformed escapes don't crash and stay literal.
        #expect(text(get(router, "/v1/domains/%zz/rules/%4")) == "%zz|%4|/v1/domains/%zz/rules/%4")
    }

    @Test func emptySegmentsDoNotMatchParameters() {
        let router = router { $0.get("/v1/apps/{id}") { _ in .text("x") } }
        #expect(get(router, "/v1/apps/").status == 404)
        #expect(get(router, "/v1/apps").status == 404)
        #expect(get(router, "/v1/apps/1/").status == 404)
    }

    @Test func notFoundIsAProblemWithRequestID() throws {
        let router = router { $0.get("/a") { _ in .text("a") } }
        let response = router.respond(to: Request(method: .GET, path: "/b", requestID: "rid-1"))
        #expect(response.status == 404)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(response.headers["X-Request-ID"] == "rid-1")
        #expect(text(response) == #"{"type":"https://linkd.dev/problems/not-found","title":"Not found","status":404,"requestId":"rid-1"}"#)
    }

    @Test func methodNotAllowedListsAllowedMethods() {
        let router = router {
            $0.get("/r/{id}") { _ in .text("get") }
            $0.delete("/r/{other}") { .text("delete \($0.parameters["other"]!)") }
        }
        let response = get(router, "/r/1", method: .POST)
        #expect(response.status == 405)
        #expect(response.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")
        #expect(text(get(router, "/r/7", method: .DELETE)) == "delete 7")
        let options = get(router, "/r/1", method: .OPTIONS)
        #expect(options.status == 204)
        #expect(options.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")
    }

    @Test func headUsesGetWithoutBody() {
        let router = router { $0.get("/doc") { _ in .json(Array("{\"a\":1}".utf8)) } }
        let head = get(router, "/doc", method: .HEAD)
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.headers["Content-Length"] == "7")
        #expect(head.headers["Content-Type"] == "application/json")
        #expect(get(router, "/doc").body.count == 7)
    }

    @Test func explicitHeadRouteWins() {
        let router = router {
            $0.get("/doc") { _ in .text("get") }
            $0.head("/doc") { _ in Response(status: 204) }
        }
        #expect(get(router, "/doc", method: .HEAD).status == 204)
    }

    @Test func problemConvertibleErrorsKeepTheirStatus() {
        struct Missing: ProblemConvertible {
            var problem: Problem { .notFound(detail: "no such app") }
        }
        let router = router {
            $0.get("/missing") { _ in throw Missing() }
            $0.post("/invalid") { _ in
                throw Problem.unprocessable(detail: "bad rules", errors: [.init(pointer: "/rules/3/path", detail: "must start with /")])
            }
        }
        let missing = get(router, "/missing")
        #expect(missing.status == 404)
        #expect(text(missing).contains("\"detail\":\"no such app\""))
        let invalid = get(router, "/invalid", method: .POST)
        #expect(invalid.status == 422)
        #expect(text(invalid).contains(#""errors":[{"pointer":"/rules/3/path","detail":"must start with /"}]"#))
    }

    @Test func otherErrorsBecomeOpaque500AndAreLogged() {
        struct Leaky: Error { let sql = "SELECT secret FROM vault" }
        let router = router { $0.get("/boom") { _ in throw Leaky() } }
        let response = get(router, "/boom")
        #expect(response.status == 500)
        #expect(!text(response).contains("secret"))
        #expect(text(response).contains("\"type\":\"https://linkd.dev/problems/internal\""))
        #expect(logs.entries.contains { $0.level == .error && ($0.metadata["error"] ?? "").contains("SELECT secret") })
    }

    @Test func fallbackReplaces404ButNot405() {
        let router = router {
            $0.get("/api/x") { _ in .text("x") }
            $0.fallback { .text("fallback \($0.host ?? "-") \($0.path)") }
        }
        #expect(text(get(router, "/some/link", headers: ["Host": "Go.Example.com"])) == "fallback go.example.com /some/link")
        #expect(get(router, "/api/x", method: .POST).status == 405)
        #expect(metrics.counterValue("linkd_http_requests_total", labels: ["route": "fallback", "method": "GET", "status": "200"]) == 1)
    }

    @Test func middlewareRunsInOrderAroundEverything() {
        let router = router {
            $0.use(TagMiddleware(tag: "outer"))
            $0.use(TagMiddleware(tag: "inner"))
            $0.get("/a") { _ in .text("a") }
        }
        #expect(get(router, "/a").headers.values("X-Tag") == ["inner", "outer"])
        #expect(get(router, "/nope").headers.values("X-Tag") == ["inner", "outer"])
        #expect(get(router, "/a", method: .PUT).headers.values("X-Tag") == ["inner", "outer"])
    }

    /// A route's own middleware runs inside the builder's, around that route alone, and sees its thrown errors as
    /// problem responses.
    @Test func routeMiddlewareWrapsItsRouteAlone() {
        let router = router {
            $0.use(TagMiddleware(tag: "outer"))
            $0.add(.GET, "/a", middleware: [TagMiddleware(tag: "route")]) { _ in .text("a") }
            $0.add(.GET, "/fails", middleware: [TagMiddleware(tag: "route")]) { _ in throw Problem.notFound }
            $0.get("/b") { _ in .text("b") }
        }
        #expect(get(router, "/a").headers.values("X-Tag") == ["route", "outer"])
        let failed = get(router, "/fails")
        #expect(failed.status == 404 && failed.headers.values("X-Tag") == ["route", "outer"])
        #expect(get(router, "/b").headers.values("X-Tag") == ["outer"])
        #expect(get(router, "/nope").headers.values("X-Tag") == ["outer"])
    }

    @Test func middlewareMayThrowProblems() {
        let router = router {
            $0.use(DenyMiddleware())
            $0.get("/private") { _ in .text("secret") }
        }
        #expect(get(router, "/private").status == 401)
        #expect(get(router, "/private", headers: ["Authorization": "Bearer x"]).status == 200)
    }

    @Test func everyResponseGetsARequestID() {
        let router = router { $0.get("/a") { _ in Response(status: 200, headers: ["X-Request-ID": "spoofed"]) } }
        let fromClient = get(router, "/a", headers: ["X-Request-ID": "client-id"])
        #expect(fromClient.headers.values("X-Request-ID") == ["client-id"])
        let generated = get(router, "/a", headers: ["X-Request-ID": "bad id\r\nx"])
        #expect(generated.headers["X-Request-ID"]?.count == 32)
    }

    @Test(
        "a parameter holding %00 is a 400 naming it, before the handler runs",
        arguments: [
            ("/teams/AB%00", "teamId"), ("/teams/%00", "teamId"), ("/files/a/b%00c", "rest"),
            ("/teams?cursor=%00", "cursor"), ("/teams?a=1&name=x%00y", "name"), ("/teams?x%00=1", "x%00"),
        ])
    func nulInParameters(path: String, name: String) {
        let ran = Atomic<Int>(0)
        let router = router { builder in
            builder.get("/teams/{teamId}") { _ in
                ran.add(1, ordering: .relaxed); return .text("team")
            }
            builder.get("/teams") { _ in
                ran.add(1, ordering: .relaxed); return .text("teams")
            }
            builder.get("/files/{rest*}") { _ in
                ran.add(1, ordering: .relaxed); return .text("file")
            }
        }
        let response = get(router, path)
        #expect(response.status == 400)
        #expect(response.headers["Content-Type"] == "application/problem+json")
        #expect(text(response).contains("'\(name)'"))
        #expect(ran.load(ordering: .relaxed) == 0)
        // Escapes that decode to other bytes are the handler's business.
        #expect(get(router, "/teams/AB%2500?q=%0A%20").status == 200)
    }

    @Test func internalProblemsAreLoggedAtErrorLevel() {
        let router = router { builder in
            builder.get("/broken") { _ in throw Problem.internal }
            builder.get("/missing") { _ in throw Problem.notFound }
        }
        #expect(get(router, "/broken").status == 500)
        #expect(get(router, "/missing").status == 404)
        let errors = logs.entries.filter { $0.level == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.metadata["http.path"] == "/broken")
    }

    @Test func routesAreListed() {
        let router = router {
            $0.get("/a") { _ in .text("a") }
            $0.post("/b/{id}") { _ in .text("b") }
        }
        #expect(router.routes.map { "\($0.method) \($0.template)" } == ["GET /a", "POST /b/{id}"])
    }

    @Test func routerIsSafeFromManyThreads() {
        let router = router { $0.get("/n/{n}") { .text($0.parameters["n"]!) } }
        let mismatches = Atomic<Int>(0)
        let threads = (0..<8).map { worker in
            TestThread {
                for index in 0..<500
                where String(decoding: router.respond(to: Request(method: .GET, path: "/n/\(worker)-\(index)")).body, as: UTF8.self)
                    != "\(worker)-\(index)"
                {
                    mismatches.add(1, ordering: .relaxed)
                }
            }
        }
        threads.forEach { $0.join() }
        #expect(mismatches.load(ordering: .relaxed) == 0)
    }
}
