import Foundation
import Glibc
import Observability
import Outbound
import Testing
import TestSupport

/// `HTTPClient.send`: webhook-style POSTs to a real server on loopback (which the policy must allow for them to
/// arrive), and the `AddressPolicy` enforced inside libcurl on the address connected to.
@Suite("Outbound POST under an address policy")
struct HTTPClientSendTests {
    /// Lets the local server be reached.
    static let loopback = AddressPolicy(allowing: [try! CIDR("127.0.0.0/8")])

    static func send(
        _ request: OutboundRequest, client: HTTPClient, policy: AddressPolicy = loopback,
        allowHTTP: Bool = true
    ) -> Result<OutboundResponse, OutboundFailure> {
        do { return .success(try client.send(request, allowedBy: policy, allowHTTP: allowHTTP)) } catch { return .failure(error) }
    }

    static func kind(_ result: Result<OutboundResponse, OutboundFailure>) -> OutboundFailure.Kind? {
        if case .failure(let failure) = result { failure.kind } else { nil }
    }

    @Test func postsTheBodyAndHeadersAsGiven() throws {
        let server = try LocalServer()
        let client = try HTTPClient()
        // NUL, CR, LF and bytes that are not UTF-8: sent as they are, with their length.
        let body: [UInt8] = Array(#"{"type":"link.created"}"#.utf8) + [0, 13, 10, 0xFF, 0xFE]
        let request = OutboundRequest(
            url: "http://127.0.0.1:\(server.port)/hook", method: .post,
            headers: [("webhook-id", "msg_1"), ("webhook-signature", "v1,abc=")],
            body: body, contentType: "application/json")
        let response = try Self.send(request, client: client).get()
        #expect(response.status == 204)
        #expect(response.remoteAddress == "127.0.0.1")
        let received = try #require(try server.received(awaiting: 1).first)
        #expect(received.method == "POST")
        #expect(received.path == "/hook")
        #expect(received.bodyBytes == body)
        #expect(received.headers["content-type"] == "application/json")
        #expect(received.headers["content-length"] == "\(body.count)")
        #expect(received.headers["webhook-id"] == "msg_1")
        #expect(received.headers["webhook-signature"] == "v1,abc=")
        #expect(received.headers["user-agent"] == "linkd/1")
        #expect(received.headers["expect"] == nil)
        #expect(received.headers["cookie"] == nil)
    }

    @Test func postsAnEmptyBodyWithoutAFormType() throws {
        let server = try LocalServer()
        let client = try HTTPClient()
        let response = try Self.send(OutboundRequest(url: "http://127.0.0.1:\(server.port)/hook", method: .post), client: client).get()
        #expect(response.status == 204)
        let received = try #require(try server.received(awaiting: 1).first)
        #expect(received.bodyBytes.isEmpty)
        #expect(received.headers["content-length"] == "0")
        #expect(received.headers["content-type"] == nil)
    }

    /// A large body goes out at once: no `Expect: 100-continue` (libcurl asks it above 1 MiB), which waits up to a
    /// second for a server that does not answer it.
    @Test func postsALargeBodyWithoutWaitingForContinue() throws {
        let server = try LocalServer()
        let client = try HTTPClient()
        let body = [UInt8](repeating: 0x61, count: 2 << 20)
        let response = try Self.send(
            OutboundRequest(
                url: "http://127.0.0.1:\(server.port)/hook", method: .post, body: body,
                contentType: "text/plain"), client: client
        ).get()
        #expect(response.status == 204)
        let received = try #require(try server.received(awaiting: 1).first)
        #expect(received.length == body.count)
        #expect(received.headers["expect"] == nil)
    }

    @Test func aServerErrorIsAnAnswer() throws {
        let server = try LocalServer()
        let client = try HTTPClient()
        let response = try Self.send(
            OutboundRequest(
                url: "http://127.0.0.1:\(server.port)/hook-error", method: .post,
                body: Array("{}".utf8), contentType: "application/json"), client: client
        ).get()
        #expect(response.status == 500)
        #expect(String(decoding: response.body, as: UTF8.self) == "receiver broke")
        #expect(!response.bodyTruncated)
    }

    @Test func aRedirectIsReportedNotFollowed() throws {
        let server = try LocalServer()
        let client = try HTTPClient()
        let base = "http://127.0.0.1:\(server.port)/"
        let response = try Self.send(OutboundRequest(url: base + "hook-redirect", method: .post, body: [1]), client: client).get()
        #expect(response.status == 307)
        #expect(response.redirectURL == base + "hook")
        try server.mark() // a followed redirect would be reported before it
        #expect(server.requests == ["/hook-redirect", "/marker"])
    }

    /// With `truncateBody`, a long answer is answered with its first bytes, declared length or not; without
    /// it, it fails as `tooLarge` as a GET's does.
    @Test func truncatesALargeAnswerWhenAsked() throws {
        let server = try LocalServer()
        let client = try HTTPClient()
        let base = "http://127.0.0.1:\(server.port)/"
        for path in ["hook-large?bytes=100000", "hook-large-unsized?bytes=100000"] {
            let request = OutboundRequest(url: base + path, method: .post, body: [1], maxBodyBytes: 4096, truncateBody: true)
            let response = try Self.send(request, client: client).get()
            #expect(response.status == 200, "\(path)")
            #expect(response.body == [UInt8](repeating: 0x79, count: 4096), "\(path): \(response.body.count)")
            #expect(response.bodyTruncated, "\(path)")
        }
        let whole = try Self.send(
            OutboundRequest(
                url: base + "hook-large?bytes=4096", method: .post, maxBodyBytes: 4096,
                truncateBody: true), client: client
        ).get()
        #expect(whole.body.count == 4096 && !whole.bodyTruncated)
        let strict = OutboundRequest(url: base + "hook-large?bytes=100000", method: .post, body: [1], maxBodyBytes: 4096)
        guard case .failure(let failure) = Self.send(strict, client: client) else {
            Issue.record("answered a body over the limit")
            return
        }
        #expect(failure.kind == .tooLarge)
        // The client still works after a truncated transfer.
        #expect(try Self.send(OutboundRequest(url: base + "hook", method: .post), client: client).get().status == 204)
    }

    @Test func refusesAURLOfTheWrongForm() throws {
        let client = try HTTPClient()
        for (url, allowHTTP) in [
            ("http://8.8.8.8/hook", false), ("https://user@8.8.8.8/hook", false),
            ("https://8.8.8.8/hook#x", false), ("ftp://8.8.8.8/hook", true),
        ] {
            guard
                case .failure(let failure) = Self.send(
                    OutboundRequest(url: url, method: .post), client: client,
                    allowHTTP: allowHTTP)
            else {
                Issue.record("sent to \(url)")
                continue
            }
            #expect(failure.kind == .refusedTarget, "\(url): \(failure)")
        }
        guard case .failure(let getWithBody) = Self.send(OutboundRequest(url: "https://8.8.8.8/", body: [1]), client: client) else {
            Issue.record("sent a GET with a body")
            return
        }
        #expect(getWithBody.kind == .other)
    }

    /// The server listens on 127.0.0.1; a policy that does not allow loopback never connects to it, whether the
    /// address is in the URL, behind `localhost` or behind a `CURLOPT_RESOLVE` override.
    @Test func neverConnectsToARefusedAddress() throws {
        let server = try LocalServer()
        let name = "hooks.example.com"
        var settings = HTTPClient.Settings()
        settings.resolve = [try #require(ResolveOverride("\(name):\(server.port):127.0.0.1"))]
        let client = try HTTPClient(settings: settings)
        for url in [
            "http://127.0.0.1:\(server.port)/hook", "http://localhost:\(server.port)/hook",
            "http://\(name):\(server.port)/hook", "http://[::ffff:127.0.0.1]:\(server.port)/hook",
            "http://2130706433:\(server.port)/hook", "http://0x7f.1:\(server.port)/hook",
        ] {
            let started = ContinuousClock.now
            let result = Self.send(OutboundRequest(url: url, method: .post, body: [1]), client: client, policy: AddressPolicy())
            guard case .failure(let failure) = result else {
                Issue.record("sent to \(url)")
                continue
            }
            #expect(failure.kind == .refusedAddress, "\(url): \(failure)")
            #expect(failure.message.contains("port \(server.port)"), "\(failure)")
            #expect(failure.message.contains("(loopback)"), "\(failure)")
            #expect(ContinuousClock.now - started < .milliseconds(500))
        }
        // 0.0.0.0 reaches the machine itself on Linux.
        let unspecified = Self.send(
            OutboundRequest(url: "http://0.0.0.0:\(server.port)/hook", method: .post), client: client,
            policy: AddressPolicy())
        #expect(Self.kind(unspecified) == .refusedAddress, "\(unspecified)")
        // A connection made above would be reported before the marker's.
        try server.mark()
        #expect(server.acceptedConnections.count == 1, "only the marker's: \(server.acceptedConnections)")
        // The same requests under a policy allowing loopback do connect: the server would have seen the above.
        for url in ["http://127.0.0.1:\(server.port)/hook", "http://\(name):\(server.port)/hook"] {
            #expect(try Self.send(OutboundRequest(url: url, method: .post), client: client).get().status == 204)
        }
        #expect(server.requests(awaiting: 3).count == 3)
        #expect(server.acceptedConnections.count > 1)
    }

    /// A private address behind an override (DNS that changed since the URL was checked): refused at once, with
    /// the address and range. (Nothing is ever sent to 10.0.0.1: some networks have a host there.)
    @Test func refusesAPrivateAddressAtConnectTime() throws {
        let name = "hooks.example.com"
        var settings = HTTPClient.Settings()
        settings.resolve = [try #require(ResolveOverride("\(name):443:10.0.0.1"))]
        let client = try HTTPClient(settings: settings)
        let request = OutboundRequest(url: "https://\(name)/hook", method: .post, body: [1], timeout: .seconds(3))
        let started = ContinuousClock.now
        guard case .failure(let refused) = Self.send(request, client: client, policy: AddressPolicy()) else {
            Issue.record("sent to 10.0.0.1")
            return
        }
        #expect(refused.kind == .refusedAddress, "\(refused)")
        #expect(refused.message.contains("10.0.0.1 port 443: 10.0.0.1 is in 10.0.0.0/8 (private)"), "\(refused)")
        #expect(ContinuousClock.now - started < .milliseconds(500), "\(ContinuousClock.now - started)")
    }

    @Test func refusesTheMetadataAddress() throws {
        let client = try HTTPClient()
        let started = ContinuousClock.now
        let result = Self.send(
            OutboundRequest(
                url: "http://169.254.169.254/latest/meta-data/", method: .post,
                timeout: .seconds(2)), client: client, policy: AddressPolicy())
        guard case .failure(let failure) = result else {
            Issue.record("sent to the metadata address")
            return
        }
        #expect(failure.kind == .refusedAddress, "\(failure)")
        #expect(failure.message.contains("169.254.169.254/32 (cloud metadata service)"), "\(failure)")
        #expect(ContinuousClock.now - started < .milliseconds(500))
    }

    /// A connection a looser policy opened is kept by the handle; a stricter policy's request must not go out on
    /// it (`CURLOPT_PREREQFUNCTION` judges a reused connection, whose socket was opened before).
    @Test func doesNotReuseAConnectionTheNewPolicyRefuses() throws {
        let server = try LocalServer()
        var settings = HTTPClient.Settings()
        settings.idleHandles = 1
        let client = try HTTPClient(settings: settings)
        let url = "http://127.0.0.1:\(server.port)/hook"
        #expect(try Self.send(OutboundRequest(url: url, method: .post), client: client).get().status == 204)
        #expect(try Self.send(OutboundRequest(url: url, method: .post), client: client).get().status == 204)
        let reused = server.connectionsAwaiting(2)
        #expect(Set(reused.map(\.clientPort)).count == 1, "the pool does keep the connection: \(reused)")
        guard
            case .failure(let failure) = Self.send(
                OutboundRequest(url: url, method: .post), client: client,
                policy: AddressPolicy())
        else {
            Issue.record("sent over a connection to loopback")
            return
        }
        #expect(failure.kind == .refusedAddress, "\(failure)")
        try server.mark() // a request sent above would be reported before it
        #expect(server.requests.count == 3, "the two sent and the marker: \(server.requests)")
        #expect(server.acceptedConnections.count == 2, "the kept connection and the marker's")
    }

    /// The failure kind is counted under its own outcome.
    @Test func countsRefusalsInTheMetrics() throws {
        let metrics = MetricsRegistry(threads: 1)
        let client = try HTTPClient(metrics: metrics)
        _ = Self.send(OutboundRequest(url: "http://10.0.0.1/hook", method: .post), client: client, policy: AddressPolicy())
        #expect(metrics.counterValue("linkd_outbound_requests_total", labels: ["outcome": "refusedAddress"]) == 1)
        #expect(metrics.counterValue("linkd_outbound_requests_total", labels: ["outcome": "connect"]) == 0)
    }
}
