import Foundation
import Glibc
import Postgres
import Testing
import TestSupport

/// `deploy/Caddyfile` run by Debian's caddy with its internal CA in front of real `linkd serve` nodes on loopback.
@Suite("Caddy in front", .serialized, .enabled(if: CaddyFront.enabled, "caddy is not installed (scripts/install-deps installs it)"))
struct CaddyFrontTests {
    static let host = "links.example.com"
    static let ask = #"linkd_http_requests_total{method="GET",route="/v1/tls/ask",status="404"}"#

    @Test func linkDomainsGetCertificatesOnDemandAndClicksKeepTheirClient() throws {
        let database = try TestDatabase.create()
        defer { try? database.drop() }
        let key = try FrontedLinkd.key(database)
        let node = try FrontedLinkd(database: database)
        defer { node.stop() }
        try Fixture.expect(
            201,
            node.api("POST", "/v1/domains", key: key, json: #"{"hostname":"\#(Self.host)","webFallbackUrl":"https://www.example.com"}"#))
        let caddy = try CaddyFront(upstreams: [node.port], askPort: node.port)
        defer { caddy.close() }

        // The association file over HTTPS: 200, JSON, no redirect.
        let aasa = try caddy.curl(host: Self.host, path: "/.well-known/apple-app-site-association")
        #expect(aasa.status == 0 && aasa.code == 200, "\(aasa) \(caddy.log.suffix(2000))")
        #expect(aasa.contentType == "application/json")
        #expect(aasa.redirects == 0 && aasa.location.isEmpty)
        #expect(aasa.body.contains("applinks"))

        // A host linkd does not serve gets no certificate: the handshake fails, after linkd was asked.
        let asked = try node.metric(Self.ask)
        let unknown = try caddy.curl(host: "other.example.com", path: "/.well-known/apple-app-site-association")
        #expect(unknown.status != 0 && unknown.code == 0, "\(unknown)")
        #expect(try node.metric(Self.ask) == asked + 1)
        // The ask endpoint itself is not reachable from outside.
        #expect(try caddy.curl(host: Self.host, path: "/v1/tls/ask?domain=x.example.com").code == 404)
        // Nor are the node's metrics and readiness: on a link domain they are link paths (the web fallback).
        for path in ["/metrics", "/readyz"] {
            let link = try caddy.curl(host: Self.host, path: path)
            #expect(link.code == 302 && link.location.hasPrefix("https://www.example.com") && !link.body.contains("linkd_"), "\(link)")
        }
        #expect(try node.metric(Self.ask) > 0, "the node's own address still answers /metrics")

        // Plain HTTP: the files answer as they are, everything else goes to HTTPS.
        let plain = try caddy.curl("http", host: Self.host, path: "/.well-known/apple-app-site-association")
        #expect(plain.code == 200 && plain.contentType == "application/json" && plain.location.isEmpty, "\(plain)")
        let missing = try caddy.curl("http", host: "other.example.com", path: "/.well-known/apple-app-site-association")
        #expect(missing.code == 404 && missing.location.isEmpty, "\(missing)")
        let page = try caddy.curl("http", host: Self.host, path: "/promo?x=1")
        #expect(page.code == 308 && page.location == "https://\(Self.host)/promo?x=1", "\(page)")

        // A click through Caddy from 127.0.0.2: its visitor hash is 127.0.0.2's, not Caddy's 127.0.0.1.
        let click = try caddy.curl(host: Self.host, path: "/promo", from: "127.0.0.2", userAgent: "FrontTest/1")
        #expect(click.code == 302, "\(click)")
        let connection = try Connection(database.parameters)
        var stored: [(String, String, String)] = []
        #expect(
            try eventually {
                stored = try connection.query(
                    """
                    SELECT h.visitor_hash,
                           encode(substring(sha256(convert_to(s.salt || E'\\n' || '127.0.0.2' || E'\\n' || 'FrontTest/1', 'UTF8')) from 1 for 16), 'hex'),
                           encode(substring(sha256(convert_to(s.salt || E'\\n' || '127.0.0.1' || E'\\n' || 'FrontTest/1', 'UTF8')) from 1 for 16), 'hex')
                    FROM hits h JOIN hit_visitor_salts s ON s.day = (h.time AT TIME ZONE 'UTC')::date
                    WHERE h.hostname = \(Self.host) AND h.path = '/promo'
                    """
                ).map { try $0.decode((String, String, String).self) }
                return !stored.isEmpty
            })
        let hashes = try #require(stored.first, "the click's hit was not stored")
        #expect(hashes.0 == hashes.1, "the visitor hash is the client's")
        #expect(hashes.0 != hashes.2)

        // A domain created through the API gets its certificate on its first request, nothing restarted.
        try Fixture.expect(
            201,
            node.api("POST", "/v1/domains", key: key, json: #"{"hostname":"new.example.com","webFallbackUrl":"https://www.example.com"}"#))
        let fresh = try caddy.curl(host: "new.example.com", path: "/.well-known/apple-app-site-association")
        #expect(fresh.status == 0 && fresh.code == 200 && fresh.contentType == "application/json", "\(fresh)")
    }

    @Test func twoNodesBehindOneFront() throws {
        let database = try TestDatabase.create()
        defer { try? database.drop() }
        let key = try FrontedLinkd.key(database)
        let first = try FrontedLinkd(database: database)
        defer { first.stop() }
        let second = try FrontedLinkd(database: database)
        defer { second.stop() }
        try Fixture.expect(201, first.api("POST", "/v1/teams", key: key, json: #"{"teamId":"ABCDE12345","name":"Acme"}"#))
        let app = try Fixture.expect(
            201,
            first.api(
                "POST", "/v1/apps", key: key, json: #"{"platform":"ios","name":"W","teamId":"ABCDE12345","bundleId":"com.example.w"}"#))
        let appID = try #require(app.text.firstMatch(of: /"id":"([0-9a-f-]{36})"/)?.1)
        try Fixture.expect(
            201,
            first.api("POST", "/v1/domains", key: key, json: #"{"hostname":"\#(Self.host)","webFallbackUrl":"https://www.example.com"}"#))
        let caddy = try CaddyFront(upstreams: [first.port, second.port], askPort: first.port)
        defer { caddy.close() }
        #expect(try caddy.curl(host: Self.host, path: "/.well-known/apple-app-site-association").code == 200)

        // A rule changed on the first node is served by both within a second.
        try Fixture.expect(
            200,
            first.api("PUT", "/v1/domains/\(Self.host)/rules", key: key, json: #"{"rules":[{"apps":["\#(appID)"],"path":"/front/*"}]}"#))
        let changed = Date()
        var served: Set<Int> = []
        #expect(
            try eventually {
                for node in [first, second] where !served.contains(node.port) {
                    let file = try HTTPTestClient.request(
                        port: node.port, method: "GET", path: "/.well-known/apple-app-site-association", headers: [("Host", Self.host)])
                    if file.text.contains("/front/*") { served.insert(node.port) }
                }
                return served.count == 2
            })
        let took = Date().timeIntervalSince(changed)
        #expect(took < 1, "both nodes serve the new rule within a second: took \(took) s")
        for _ in 0..<4 {
            let through = try caddy.curl(host: Self.host, path: "/.well-known/apple-app-site-association")
            #expect(through.code == 200 && through.body.contains("/front/*"), "\(through)")
        }

        // One node stops: the domain keeps answering through the front.
        first.stop()
        for _ in 0..<6 {
            let answer = try caddy.curl(host: Self.host, path: "/.well-known/apple-app-site-association")
            #expect(answer.code == 200 && answer.body.contains("/front/*"), "\(answer)")
        }
    }
}

/// Status checks on API answers, as the LinkService tests' `Fixture.expect`.
enum Fixture {
    @discardableResult
    static func expect(_ status: Int, _ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> TestResponse {
        guard response.status == status else {
            throw TestFailure("expected \(status), got \(response.status): \(response.text)")
        }
        return response
    }
}
