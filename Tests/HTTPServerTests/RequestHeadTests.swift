import Testing
@testable import HTTPServer
import TestSupport

/// Request heads libmicrohttpd would hand over cut at a NUL, and `Host` rules (RFC 9112 §3.2), over the socket:
/// the bytes a hostile client sends, as it sends them.
@Suite("Request heads over loopback")
struct RequestHeadTests {
    /// The response to `head` sent as it is on a fresh connection.
    private func answer(_ head: String, port: Int) throws -> TestResponse {
        let client = try HTTPTestClient(port: port)
        try client.send(head)
        return try client.readResponse()
    }

    @Test(
        "a NUL anywhere in the head is a 400",
        arguments: [
            "GET /hello\0x HTTP/1.1\r\nHost: a\r\n\r\n", // served as /hello before
            "GET /query?a=1\0b HTTP/1.1\r\nHost: a\r\n\r\n",
            "GE\0T /hello HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: a\0evil.example\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost:\0a\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer key\0junk\r\nAccept: */*\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: a\r\nX-Last: b\0c\r\n\r\n", // the head's last line
            "GET /hello HTTP/1.1\nHost: a\nX-Last: b\0c\n\n", // bare LF line ends
            "GET /hello HTTP/1.1\r\nHost: a\r\nX-Trailing-NUL: b\0\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: a\r\nX-Folded: b\r\n c\r\n\r\n", // obs-fold (RFC 9112 §5.2 allows a 400)
        ])
    func nulIsRefused(head: String) throws {
        try withLiveServer { _, port in
            let response = try answer(head, port: port)
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.text.contains("https://linkd.dev/problems/bad-request"))
            #expect(response.headers["Connection"] == "close")
        }
    }

    @Test(
        "ordinary heads are served",
        arguments: [
            "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /hello HTTP/1.1\nHost: a\n\n", // bare LF line ends
            "GET  /hello HTTP/1.1\r\nHost: a\r\n\r\n", // two spaces after the method
            "GET /hello HTTP/1.1\r\nHost:a\r\nX-Empty:\r\nX-Blank: \t \r\nX-Tab:\tv \r\n\r\n",
            "GET /query?a=1&b=%41&c HTTP/1.1\r\nHost: a\r\nCookie: x=1; y=2\r\n\r\n",
            "GET /hello HTTP/1.0\r\n\r\n", // HTTP/1.0 needs no Host
            "GET http://links.example/hello HTTP/1.1\r\nHost: links.example\r\n\r\n",
        ])
    func ordinaryHeadsPass(head: String) throws {
        try withLiveServer { _, port in
            let response = try answer(head, port: port)
            #expect(response.status == 200)
        }
    }

    @Test func keepAliveAndBodiesStillWork() throws {
        try withLiveServer { _, port in
            let client = try HTTPTestClient(port: port)
            #expect(try client.request("POST", "/echo", body: Array("abc".utf8)).text == "abc")
            #expect(try client.request("GET", "/hello", headers: [("X-A", "1"), ("X-B", "")]).text == "hello")
            #expect(try client.request("GET", "/query?a=1").text == "a=1")
        }
    }

    @Test(
        "Host: missing in HTTP/1.1 or repeated is a 400",
        arguments: [
            "GET /hello HTTP/1.1\r\n\r\n",
            "GET /hello HTTP/1.1\r\nAccept: */*\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            "GET /hello HTTP/1.0\r\nHost: a\r\nhost: a\r\n\r\n",
        ])
    func hostRules(head: String) throws {
        try withLiveServer { _, port in
            let response = try answer(head, port: port)
            #expect(response.status == 400)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.text.contains("Host"))
        }
    }
}
