import Foundation
@testable import HTTPServer
import Observability
import Testing
import TestSupport
import CMicroHTTPDShim

/// Errors decided inside libmicrohttpd's parser, and the framing checks of ours beside them, arrive as
/// problem+json over a real socket (issue 17, item 5).
@Suite("Errors libmicrohttpd decides")
struct LibraryErrorAnswerTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let bytes: [UInt8]
        let status: Int
        let type: String
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "request target beyond the memory pool",
            bytes: Array("GET /hello?q=\(String(repeating: "a", count: 200_000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            status: 414, type: Problem.Types.uriTooLong),
        Case(
            name: "header field beyond the memory pool",
            bytes: Array("GET /hello HTTP/1.1\r\nHost: x\r\nX-Filler: \(String(repeating: "b", count: 200_000))\r\n\r\n".utf8),
            status: 431, type: Problem.Types.headersTooLarge),
        Case(
            name: "many header fields beyond the memory pool",
            bytes: Array(("GET /hello HTTP/1.1\r\nHost: x\r\n" + (0..<4000).map { "X-F\($0): v\r\n" }.joined() + "\r\n").utf8),
            status: 431, type: Problem.Types.headersTooLarge),
        Case(
            name: "Content-Length not a number", bytes: Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n".utf8),
            status: 400, type: Problem.Types.badRequest),
        Case(
            name: "Content-Length beyond 64 bits",
            bytes: Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n".utf8),
            status: 413, type: Problem.Types.payloadTooLarge),
        Case(
            name: "Content-Length as a list", bytes: Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\nhello".utf8),
            status: 400, type: Problem.Types.badRequest),
        Case(
            name: "Content-Length twice",
            bytes: Array("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello".utf8),
            status: 400, type: Problem.Types.badRequest),
        Case(
            name: "Content-Length and Transfer-Encoding",
            bytes: Array(
                "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".utf8),
            status: 400, type: Problem.Types.badRequest),
        Case(
            name: "malformed HTTP version", bytes: Array("GET /hello HTTP/1.x\r\nHost: x\r\n\r\n".utf8),
            status: 400, type: Problem.Types.badRequest),
        Case(
            name: "HTTP/2.0 request line", bytes: Array("GET /hello HTTP/2.0\r\nHost: x\r\n\r\n".utf8),
            status: 505, type: Problem.Types.httpVersionNotSupported),
        Case(
            name: "HTTP/0.9 request line", bytes: Array("GET /hello HTTP/0.9\r\nHost: x\r\n\r\n".utf8),
            status: 505, type: Problem.Types.httpVersionNotSupported),
        Case(
            name: "malformed chunk size",
            bytes: Array("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n".utf8),
            status: 400, type: Problem.Types.badRequest),
        Case(
            name: "chunk size beyond 64 bits",
            bytes: Array(
                "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\nhello\r\n0\r\n\r\n".utf8),
            status: 413, type: Problem.Types.payloadTooLarge),
        Case(
            name: "chunk without its line end",
            bytes: Array("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX0\r\n\r\n".utf8),
            status: 400, type: Problem.Types.badRequest),
    ]

    @Test(arguments: cases)
    func answeredAsProblemJSON(_ testCase: Case) throws {
        let metrics = MetricsRegistry()
        try withLiveServer(metrics: metrics) { server, port in
            let client = try HTTPTestClient(port: port, timeout: 5)
            try? client.send(testCase.bytes)
            let response = try client.readResponse()
            #expect(response.status == testCase.status)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.headers["X-Request-ID"] != nil)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            #expect(object["type"] as? String == testCase.type)
            #expect(object["status"] as? Int == testCase.status)
            #expect(object["title"] is String)
            #expect(client.waitForClose(timeout: 2))
            // One answer, and nothing after it (MHD 0.9.75 writes its head twice after a bad Content-Length).
            #expect(throws: (any Error).self) { try client.readResponse() }
            // Nothing is left in flight (else shutdown would wait for it).
            #expect(eventually { server.inFlightRequests == 0 })
        }
        #expect(
            metrics.counterValue(
                "linkd_http_requests_total", labels: ["route": "rejected", "method": "unknown", "status": String(testCase.status)])
                + metrics.counterValue(
                    "linkd_http_requests_total", labels: ["route": "rejected", "method": "POST", "status": String(testCase.status)]) == 1)
    }

    /// The shim's definition of `MHD_queue_response` is the one libmicrohttpd's internal calls reach.
    @Test func theExecutableExportsTheShimsQueueResponse() {
        #expect(linkd_mhd_error_answers_replaced() == 1)
    }
}
