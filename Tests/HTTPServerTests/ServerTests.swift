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
            #expect(response.headers["X-Request-ID"]?.count == 32)
        }
    }
}
