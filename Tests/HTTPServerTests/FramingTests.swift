import Foundation
@testable import HTTPServer
import Observability
import Testing
import TestSupport

/// Request framing a server behind proxies must hold strictly (RFC 9112), and many query parameters, over raw
/// sockets (issue 27, items 6 and 7).
@Suite("Request framing")
struct FramingTests {
    /// Waits for the server to count no request in flight; whether it does.
    private func noneInFlight(_ server: Server) -> Bool {
        eventually { server.inFlightRequests == 0 }
    }

    /// Hundreds of query parameters under the URI limit are served (MHD's own argument records overflowed its
    /// memory pool: a 431 logged, nothing sent, the request counted in flight for ever).
    @Test(arguments: [400, 900, 1150])
    func manyQueryParametersAreServed(_ count: Int) throws {
        try withLiveServer { server, port in
            let query = (0..<count).map { "\($0)=\($0 % 10)" }.joined(separator: "&") // 1,150: 7.8 KB
            let client = try HTTPTestClient(port: port, timeout: 5)
            let response = try client.request("GET", "/query?" + query)
            #expect(response.status == 200)
            #expect(response.text.split(separator: "&").count == count && response.text == query)
            // The connection is still usable, and nothing is left in flight.
            #expect(try client.request("GET", "/hello").status == 200)
            #expect(noneInFlight(server))
        }
    }

    /// Beyond the URI limit, many parameters are a 414 problem, answered, and nothing is left in flight.
    @Test func manyQueryParametersBeyondTheLimitAreRefused() throws {
        try withLiveServer { server, port in
            let query = (0..<2000).map { "p\($0)=1" }.joined(separator: "&")
            let client = try HTTPTestClient(port: port, timeout: 5)
            let response = try client.request("GET", "/query?" + query)
            #expect(response.status == 414)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(noneInFlight(server))
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let bytes: String
        var description: String { name }
    }

    /// Each is refused with a 400 problem and the connection closed: nothing after the head is read as a request.
    static let refused: [Case] = [
        Case(
            name: "space before the colon",
            bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length : 21\r\n\r\nGET /hello HTTP/1.1\r\n\r\n"),
        Case(name: "tab before the colon", bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length\t: 5\r\n\r\nhello"),
        Case(name: "space inside a field name", bytes: "GET /hello HTTP/1.1\r\nHost: x\r\nX Forwarded: a\r\n\r\n"),
        Case(
            name: "chunked, identity",
            bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
        Case(
            name: "gzip, chunked",
            bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
        Case(name: "an unknown coding", bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: foo\r\n\r\nhello"),
        Case(
            name: "chunked twice",
            bytes:
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
        Case(
            name: "chunked with a trailing blank",
            bytes: "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked \r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
        Case(
            name: "Transfer-Encoding in HTTP/1.0",
            bytes: "POST /echo HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
    ]

    @Test(arguments: refused)
    func refusedWithBadRequest(_ testCase: Case) throws {
        let metrics = MetricsRegistry()
        try withLiveServer(metrics: metrics) { server, port in
            let client = try HTTPTestClient(port: port, timeout: 3)
            try client.send(testCase.bytes)
            let response = try client.readResponse()
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(object["type"] as? String == Problem.Types.badRequest)
            #expect(client.waitForClose(timeout: 2))
            #expect(noneInFlight(server))
        }
        #expect(
            metrics.counterValue("linkd_http_requests_total", labels: ["route": "rejected", "method": "POST", "status": "400"])
                + metrics.counterValue("linkd_http_requests_total", labels: ["route": "rejected", "method": "GET", "status": "400"]) == 1)
    }

    /// What stays accepted: `chunked` in any case, blanks before a value, a field without a value.
    @Test func wellFramedRequestsStillServe() throws {
        try withLiveServer { _, port in
            let client = try HTTPTestClient(port: port, timeout: 3)
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            #expect(try client.readResponse().text == "hello")
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length:   5\r\nX-Empty:\r\n\r\nworld")
            #expect(try client.readResponse().text == "world")
        }
    }
}
