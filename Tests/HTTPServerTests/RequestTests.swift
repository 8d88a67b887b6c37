import Dispatch
import Observability
import Synchronization
import Testing
@testable import HTTPServer

@Suite("Request, headers, query, problem")
struct RequestTests {
    @Test func queryItemsAreDecodedInOrder() {
        let request = Request(method: .GET, path: "/s?a=1&b=x+y&a=%2F&c=%E2%82%AC&bad=%G1%&flag&&=v")
        #expect(request.path == "/s")
        #expect(request.rawQuery == "a=1&b=x+y&a=%2F&c=%E2%82%AC&bad=%G1%&flag&&=v")
        #expect(request.queryItems.map { "\($0.name)=\($0.value)" } == ["a=1", "b=x y", "a=/", "c=€", "bad=%G1%", "flag=", "=v"])
        let edges = Request(method: .GET, path: "/s?end=%4&short=%&bytes=%FF%fe&sp%61ce=%20+%2B&é=ü&")
        #expect(edges.queryItems.map { "\($0.name)=\($0.value)" } == ["end=%4", "short=%", "bytes=\u{FFFD}\u{FFFD}", "space=  +", "é=ü"])
        #expect(request.query("a") == "1")
        #expect(request.query("missing") == nil)
    }

    /// `query(_:)` decodes only the value it finds, and answers what the decoded items say: the first item of a
    /// decoded name, escaped names and `+` in names included, an empty value without `=`; and a NUL is noticed in
    /// any item, name or value, only where an escape decodes to one.
    @Test func queryLooksUpDecodedNames() {
        let request = Request(method: .GET, path: "/s?a=1&b=x+y&a=%2F&c=%E2%82%AC&bad=%G1%&flag&&=v")
        for item in request.queryItems.reversed() {
            #expect(request.query(item.name) == request.queryItems.first { $0.name == item.name }?.value, "\(item.name)")
        }
        let edges = Request(method: .GET, path: "/s?end=%4&short=%&bytes=%FF%fe&sp%61ce=%20+%2B&é=ü&a+b=1&%61=2&a=3&\u{212A}=k&K=kelvin")
        #expect(edges.query("space") == "  +" && edges.query("é") == "ü" && edges.query("a b") == "1" && edges.query("a") == "2")
        #expect(edges.query("sp%61ce") == nil && edges.query("a+b") == nil && edges.query("flag") == nil)
        // The Kelvin sign is canonically K: names compare as strings do, whichever way either is written.
        #expect(edges.query("K") == "k" && edges.query("\u{212A}") == "k")
        #expect(Request(method: .GET, path: "/s?x=1&y").query("y") == "")
        #expect(Request(method: .GET, path: "/s").query("x") == nil && Request(method: .GET, path: "/s?").queryItems.isEmpty)
        for (query, holds) in [
            ("a=%00", true), ("%00=1", true), ("a=b%00c&d=1", true), ("a=%0", false), ("a=%0&0", false), ("a=%000", true), ("a=%%00", true),
            ("a=%0G", false), ("a=0%", false), ("a=1", false),
        ] {
            #expect(Request(method: .GET, path: "/s", rawQuery: query).queryHoldsNUL == holds, "\(query)")
        }
    }

    @Test func invalidUTF8InQueryDoesNotCrash() {
        let request = Request(method: .GET, path: "/s", rawQuery: "x=%FF%FE&y=%C3")
        #expect(request.query("x") == "\u{FFFD}\u{FFFD}")
        #expect(request.query("y") == "\u{FFFD}")
    }

    @Test(arguments: [
        ("Example.COM", "example.com"),
        ("example.com:8080", "example.com"),
        ("[::1]:8080", "::1"),
        ("[2001:DB8::1]", "2001:db8::1"),
        ("links.example.com.", "links.example.com"),
        (" spaced.example ", "spaced.example"),
        ("127.0.0.1:8080", "127.0.0.1"),
        ("\tLinks.Example.COM.:443 ", "links.example.com"),
        ("Bücher.example:80", "bücher.example"),
    ])
    func hostIsNormalized(header: String, expected: String) {
        #expect(Request(method: .GET, path: "/", headers: ["Host": header]).host == expected)
    }

    @Test func hostMissingOrEmpty() {
        #expect(Request(method: .GET, path: "/").host == nil)
        #expect(Request(method: .GET, path: "/", headers: ["Host": ""]).host == nil)
        #expect(Request(method: .GET, path: "/", headers: ["Host": ":8080"]).host == nil)
        #expect(Request(method: .GET, path: "/", headers: ["Host": "[::1"]).host == nil)
        #expect(Request(method: .GET, path: "/", headers: ["Host": " . "]).host == nil)
    }

    @Test func requestIDSanity() {
        #expect(RequestID.isSane("abc-DEF_1.2"))
        #expect(RequestID.isSane(String(repeating: "a", count: 128)))
        #expect(!RequestID.isSane(String(repeating: "a", count: 129)))
        #expect(!RequestID.isSane(""))
        #expect(!RequestID.isSane("a\r\nb"))
        #expect(!RequestID.isSane("é"))
        #expect(Request(method: .GET, path: "/", headers: ["X-Request-ID": "ok-1"]).requestID == "ok-1")
        #expect(Request(method: .GET, path: "/", requestID: "given").requestID == "given")
        #expect(RequestID.generate() != RequestID.generate())
    }

    /// The server's generator counts per thread stripe: ids from many threads at once are still all distinct.
    @Test func generatedRequestIDsAreDistinctAcrossThreads() {
        let generator = RequestIDGenerator(stripes: StripeAssignment(threads: 8))
        let ids = Mutex<Set<String>>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let mine = (0..<2000).map { _ in generator.next().text }
            ids.withLock { $0.formUnion(mine) }
        }
        #expect(ids.withLock { $0.count } == 16000)
        #expect(ids.withLock { $0.allSatisfy { $0.utf8.count == 32 && RequestID.isSane($0) } })
        // Generated ids are written out when read: the same text each time.
        var request = Request(
            method: .GET, splitPath: "/", rawQuery: nil, headers: [:], body: [], remoteAddress: "",
            checkedRequestID: generator.next())
        let first = request.requestID
        #expect(request.requestID == first && first.utf8.count == 32)
        request.requestID = "set-1"
        #expect(request.requestID == "set-1")
    }

    @Test func headersAreCaseInsensitiveAndOrdered() {
        var headers = HTTPHeaders([("Accept", "a"), ("accept", "b"), ("X-One", "1")])
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values("Accept") == ["a", "b"])
        headers.replaceOrAdd("ACCEPT", "c")
        #expect(headers.values("accept") == ["c"])
        #expect(headers.map(\.name) == ["ACCEPT", "X-One"])
        headers.add("Vary", "Origin")
        headers.remove("x-one")
        #expect(headers.map(\.name) == ["ACCEPT", "Vary"])
    }

    @Test func problemJSON() {
        var problem = Problem.unprocessable(detail: "line1\n\"quoted\"", errors: [.init(pointer: "/a/0", detail: "bad")])
        problem.extensions["requestId"] = "r1"
        problem.extensions["status"] = "ignored: reserved"
        #expect(
            String(decoding: problem.jsonBytes, as: UTF8.self)
                == #"{"type":"https://linkd.dev/problems/validation-failed","title":"Validation failed","status":422,"detail":"line1\n\"quoted\"","errors":[{"pointer":"/a/0","detail":"bad"}],"requestId":"r1"}"#
        )
        #expect(
            String(decoding: Problem.methodNotAllowed.jsonBytes, as: UTF8.self)
                == #"{"type":"https://linkd.dev/problems/method-not-allowed","title":"Method not allowed","status":405}"#)
    }

    @Test func problemFactoriesHaveTheirStatus() {
        let all: [(Problem, Int)] = [
            (.badRequest(detail: nil), 400), (.unauthorized, 401), (.forbidden, 403), (.notFound(detail: "x"), 404),
            (.methodNotAllowed, 405), (.conflict(detail: nil), 409), (.preconditionFailed, 412), (.payloadTooLarge, 413),
            (.uriTooLong, 414), (.unsupportedMediaType, 415), (.unprocessable(detail: nil, errors: []), 422),
            (.headersTooLarge, 431), (.internal, 500), (.serviceUnavailable(detail: "db down"), 503),
        ]
        for (problem, status) in all {
            #expect(problem.status == status)
            #expect(problem.type.hasPrefix("https://linkd.dev/problems/"))
            #expect(Response.problem(problem).status == status)
        }
        #expect(Set(all.map(\.0.type)).count == all.count)
    }

    @Test func responseConstructors() {
        #expect(Response.json(Array("{}".utf8), status: 201).headers["Content-Type"] == "application/json")
        #expect(Response.json([]).status == 200)
        #expect(Response.text("hi", contentType: "text/html").headers["content-type"] == "text/html")
        #expect(Response.problem(.forbidden).headers["Content-Type"] == "application/problem+json")
    }
}
