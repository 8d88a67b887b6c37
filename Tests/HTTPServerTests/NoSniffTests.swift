import Foundation
@testable import HTTPServer
import Testing
import TestSupport

/// Every answer carries `X-Content-Type-Options: nosniff` (issue 27, item 5): a handler's, a prepared one, the
/// router's problems, the server's refusals before routing and libmicrohttpd's own error answers alike, so no
/// browser reads an echoed value as HTML.
@Suite("nosniff on every answer")
struct NoSniffTests {
    @Test(arguments: [
        "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", // a handler's answer
        "GET /prepared HTTP/1.1\r\nHost: x\r\n\r\n", // a prepared response
        "GET /conflict HTTP/1.1\r\nHost: x\r\n\r\n", // a problem
        "GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n", // the router's 404
        "GET /hello HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", // refused before routing
        "GET /hello HTTP/1.x\r\nHost: x\r\n\r\n", // libmicrohttpd's 400
        "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", // written by the server itself
    ])
    func everyAnswerCarriesNoSniff(_ request: String) throws {
        try withLiveServer { _, port in
            let client = try HTTPTestClient(port: port, timeout: 5)
            try? client.send(request)
            let response = try client.readResponse()
            #expect(response.headers["X-Content-Type-Options"] == "nosniff", "\(response.status) \(response.headers)")
        }
    }

    @Test func aHandlersOwnValueIsNotRepeated() throws {
        var builder = testRoutes()
        builder.get("/own") { _ in Response(status: 200, headers: ["X-Content-Type-Options": "nosniff"], body: []) }
        try withLiveServer(routes: builder) { _, port in
            let response = try HTTPTestClient.request(port: port, path: "/own")
            #expect(response.headers.values("X-Content-Type-Options") == ["nosniff"])
        }
    }
}
