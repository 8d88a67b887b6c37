import Foundation
import Outbound
import Synchronization
import Testing
import TestSupport

/// `HTTPClient` against real servers on loopback: plain HTTP and HTTPS (Python's http.server, a throwaway CA).
@Suite("Outbound HTTP client")
struct HTTPClientTests {
    /// A client with `settings`, allowed everything on `base`.
    static func fetch(
        _ url: String, base: String, settings: HTTPClient.Settings = HTTPClient.Settings(),
        request: (inout OutboundRequest) -> Void = { _ in }
    ) throws -> Result<OutboundResponse, OutboundFailure> {
        let client = try HTTPClient(settings: settings)
        var outbound = OutboundRequest(url: url)
        request(&outbound)
        let targets = OutboundTargets(bases: [try #require(OutboundURL(base))])
        do { return .success(try client.fetch(outbound, allowedBy: targets)) } catch { return .failure(error) }
    }

    static func failure(_ result: Result<OutboundResponse, OutboundFailure>) -> OutboundFailure? {
        if case .failure(let failure) = result { failure } else { nil }
    }

    @Test func answersStatusBodyAndTheHeadersThatMatter() throws {
        let server = try LocalServer()
        let base = "http://127.0.0.1:\(server.port)/"
        let response = try Self.fetch(base + "ok", base: base).get()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"applinks":{"details":[]}}"#)
        #expect(response.contentType == "application/json")
        #expect(response.etag == "\"v1\"")
        #expect(response.lastModified == "Tue, 12 May 2026 10:00:00 GMT")
        #expect(response.cacheControl == "max-age=60, public")
        #expect(response.age == "5")
        #expect(response.location == nil)
        #expect(response.effectiveURL == base + "ok")
        #expect(response.remoteAddress == "127.0.0.1")
        #expect(response.remotePort == server.port)
        #expect(server.requests(awaiting: 1) == ["/ok"])
    }

    @Test func sendsItsUserAgentAndTheRequestsHeadersOnly() throws {
        let server = try LocalServer()
        let base = "http://127.0.0.1:\(server.port)/"
        let response = try Self.fetch(base + "headers", base: base) { $0.headers = [("Accept", "application/json")] }.get()
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String])
        #expect(seen["user-agent"] == "linkd/1")
        #expect(seen["accept"] == "application/json")
        #expect(seen["cookie"] == nil)
        #expect(seen["accept-encoding"] == nil)
    }

    @Test func reportsARedirectWithoutFollowingIt() throws {
        let server = try LocalServer()
        let base = "http://127.0.0.1:\(server.port)/"
        let response = try Self.fetch(base + "redirect", base: base).get()
        #expect(response.status == 301)
        #expect(response.isRedirect)
        #expect(response.location == "/moved")
        #expect(response.redirectURL == base + "moved")
        #expect(String(decoding: response.body, as: UTF8.self) == "moved")
        // A followed redirect would be reported before the marker.
        try server.mark()
        #expect(server.requests == ["/redirect", "/marker"])
    }

    @Test func refusesABodyOverTheLimitWithOrWithoutItsLength() throws {
        let server = try LocalServer()
        let base = "http://127.0.0.1:\(server.port)/"
        var settings = HTTPClient.Settings()
        settings.maxBodyBytes = 1000
        let atLimit = try Self.fetch(base + "large?bytes=1000", base: base, settings: settings).get()
        #expect(atLimit.body.count == 1000)
        let declared = Self.failure(try Self.fetch(base + "large?bytes=5000", base: base, settings: settings))
        #expect(declared?.kind == .tooLarge)
        let streamed = Self.failure(try Self.fetch(base + "large-unsized?bytes=50000", base: base, settings: settings))
        #expect(streamed?.kind == .tooLarge)
        // A request's own limit wins over the client's.
        let larger = try Self.fetch(base + "large?bytes=5000", base: base, settings: settings) { $0.maxBodyBytes = 5000 }.get()
        #expect(larger.body.count == 5000)
    }

    @Test func givesUpOnAStalledServerWithinTheTimeout() throws {
        let server = try LocalServer()
        let base = "http://127.0.0.1:\(server.port)/"
        var settings = HTTPClient.Settings()
        settings.timeout = .seconds(1)
        let started = ContinuousClock.now
        let failure = Self.failure(try Self.fetch(base + "stall", base: base, settings: settings))
        let elapsed = ContinuousClock.now - started
        #expect(failure?.kind == .timeout, "\(String(describing: failure))")
        #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(3), "\(elapsed)")
        // The request's own timeout wins over the client's.
        let shorter = ContinuousClock.now
        let again = Self.failure(try Self.fetch(base + "stall", base: base, settings: settings) { $0.timeout = .milliseconds(300) })
        #expect(again?.kind == .timeout)
        #expect(ContinuousClock.now - shorter < .milliseconds(900))
    }

    @Test func saysWhyWhenItCannotAsk() throws {
        let unknown = Self.failure(try Self.fetch("http://no-such-host.invalid/file", base: "http://no-such-host.invalid/"))
        #expect(unknown?.kind == .dns, "\(String(describing: unknown))")
        #expect(unknown?.message.contains("no-such-host.invalid") == true)
        // Port 1 on loopback: nothing listens there.
        let closed = Self.failure(try Self.fetch("http://127.0.0.1:1/file", base: "http://127.0.0.1:1/"))
        #expect(closed?.kind == .connect, "\(String(describing: closed))")
    }

    @Test func refusedTargetsNeverReachTheServer() throws {
        let server = try LocalServer()
        let origin = "http://127.0.0.1:\(server.port)"
        let client = try HTTPClient()
        let targets = OutboundTargets(bases: [try #require(OutboundURL(origin + "/a/v1/"))])
        for url in [
            origin + "/ok", origin + "/a/v1/../../ok", origin + "/a/v1x", "http://localhost:\(server.port)/a/v1/x",
            "http://user@127.0.0.1:\(server.port)/a/v1/x", "ftp://127.0.0.1:\(server.port)/a/v1/x",
            "https://127.0.0.1:\(server.port)/a/v1/x", origin + "/a/v1/%2e%2e/ok", "/a/v1/x",
        ] {
            do {
                _ = try client.fetch(OutboundRequest(url: url), allowedBy: targets)
                Issue.record("fetched \(url)")
            } catch {
                #expect(error.kind == .refusedTarget, "\(url)")
            }
        }
        // The server does report what reaches it: the one allowed request, and nothing before it.
        let allowed = try client.fetch(OutboundRequest(url: origin + "/a/v1/links.example.com"), allowedBy: targets)
        #expect(allowed.status == 200)
        #expect(server.requests(awaiting: 1) == ["/a/v1/links.example.com"])
    }

    /// The reason for the handle pool: the next request to the same server goes over the same connection.
    @Test func reusesTheConnectionToTheSameServer() throws {
        let server = try LocalServer()
        let base = "http://127.0.0.1:\(server.port)/"
        let client = try HTTPClient()
        let targets = OutboundTargets(bases: [try #require(OutboundURL(base))])
        for _ in 0..<3 { #expect(try client.fetch(OutboundRequest(url: base + "ok"), allowedBy: targets).status == 200) }
        let seen = server.connectionsAwaiting(3)
        #expect(seen.count == 3)
        #expect(Set(seen.map(\.clientPort)).count == 1, "\(seen)")
    }

    /// One client shared by many threads: every request gets its own answer.
    @Test func servesConcurrentRequestsFromOneClient() throws {
        let server = try LocalServer()
        let base = "http://127.0.0.1:\(server.port)/"
        let client = try HTTPClient()
        let targets = OutboundTargets(bases: [try #require(OutboundURL(base))])
        let sizes = Array(1...48).map { $0 * 100 }
        let results = Mutex<[Int: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: sizes.count) { index in
            let body = try? client.fetch(OutboundRequest(url: base + "large?bytes=\(sizes[index])"), allowedBy: targets).body
            results.withLock { $0[index] = body?.count ?? -1 }
        }
        #expect(results.withLock { $0 } == Dictionary(uniqueKeysWithValues: sizes.enumerated().map { ($0.offset, $0.element) }))
    }

    @Test func keepsNoStateBetweenRequestsOnAReusedHandle() throws {
        let server = try LocalServer()
        let base = "http://127.0.0.1:\(server.port)/"
        let client = try HTTPClient()
        let targets = OutboundTargets(bases: [try #require(OutboundURL(base))])
        let first = try client.fetch(OutboundRequest(url: base + "headers", headers: [("X-Probe", "one")]), allowedBy: targets)
        let second = try client.fetch(OutboundRequest(url: base + "headers"), allowedBy: targets)
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(second.body)) as? [String: String])
        #expect(String(decoding: first.body, as: UTF8.self).contains("one"))
        #expect(seen["x-probe"] == nil)
        let redirect = try client.fetch(OutboundRequest(url: base + "redirect"), allowedBy: targets)
        #expect(redirect.status == 301)
        let ok = try client.fetch(OutboundRequest(url: base + "ok"), allowedBy: targets)
        #expect(ok.status == 200 && ok.location == nil)
    }
}

/// HTTPS: the certificate is verified, peer and name, against the system's CAs or `--check-ca-file`, and
/// `--check-resolve` sends a public name to the local server.
@Suite("Outbound HTTPS")
struct HTTPSClientTests {
    @Test func trustsTheConfiguredCAForTheResolvedName() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let server = try LocalServer(certificate: certificates)
        var configuration = OutboundConfiguration()
        configuration.appleCDNBase = try #require(OutboundBase("https://\(TestCertificates.serverName):\(server.port)/a/v1/"))
        configuration.resolve = [try #require(ResolveOverride("\(TestCertificates.serverName):\(server.port):127.0.0.1"))]
        configuration.caFile = certificates.caCertificate
        let client = try HTTPClient(settings: configuration.clientSettings)
        let url = "https://\(TestCertificates.serverName):\(server.port)/a/v1/links.example.com"
        let response = try client.fetch(OutboundRequest(url: url), allowedBy: OutboundTargets(configuration))
        #expect(response.status == 200)
        #expect(response.etag == "\"v1\"")
        #expect(response.remoteAddress == "127.0.0.1")
        #expect(server.requests(awaiting: 1) == ["/a/v1/links.example.com"])
    }

    @Test func refusesAnUntrustedCertificate() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let server = try LocalServer(certificate: certificates)
        let name = TestCertificates.serverName
        var settings = HTTPClient.Settings()
        settings.resolve = [try #require(ResolveOverride("\(name):\(server.port):127.0.0.1"))]
        let base = "https://\(name):\(server.port)/"
        // The system's CAs do not know the test CA.
        let untrusted = HTTPClientTests.failure(try HTTPClientTests.fetch(base + "ok", base: base, settings: settings))
        #expect(untrusted?.kind == .tls, "\(String(describing: untrusted))")
        // Trusted CA, but the certificate does not name the host asked for.
        settings.caFile = certificates.caCertificate
        let address = "https://127.0.0.1:\(server.port)/"
        let wrongName = HTTPClientTests.failure(try HTTPClientTests.fetch(address + "ok", base: address, settings: settings))
        #expect(wrongName?.kind == .tls, "\(String(describing: wrongName))")
        // The same request to the right name succeeds: the failures above are the certificate's.
        let trusted = try HTTPClientTests.fetch(base + "ok", base: base, settings: settings).get()
        #expect(trusted.status == 200)
        #expect(server.requests(awaiting: 1) == ["/ok"])
    }

    @Test func aCAFileThatCannotBeReadStopsTheClient() throws {
        var settings = HTTPClient.Settings()
        settings.caFile = "/nonexistent/ca.pem"
        #expect(throws: OutboundFailure.self) { try HTTPClient(settings: settings) }
    }
}
