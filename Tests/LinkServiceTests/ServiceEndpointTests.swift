import Foundation
@testable import LinkService
import Testing
import TestSupport

@Suite("Service endpoints")
struct ServiceEndpointTests {
    @Test func healthAndReadiness() throws {
        try TestService.with { service in
            let health = try service.request("GET", "/healthz")
            #expect(health.status == 200)
            let ready = try service.request("GET", "/readyz")
            #expect(ready.status == 200)
            #expect(try ready.json["migrations"]?.stringValue == "current")
        }
    }

    /// `/readyz` reports each background service's health: the hit writer, stopped, is no longer healthy.
    @Test func readinessReportsTheBackgroundServices() throws {
        try TestService.with { service throws in
            func health() throws -> [String: Bool] {
                let ready = try service.request("GET", "/readyz")
                #expect(ready.status == 200)
                guard case .array(let services)? = try ready.json["services"] else { return [:] }
                return Dictionary(
                    uniqueKeysWithValues: services.compactMap { entry in
                        guard let name = entry["name"]?.stringValue, case .bool(let healthy)? = entry["healthy"] else { return nil }
                        return (name, healthy)
                    })
            }
            // The change feed is healthy once its listener has connected, which a loaded machine can delay.
            let healthy = [
                "change feed": true, "link index": true, "fetch log": true, "hit writer": true, "click tokens": true, "event writer": true,
                "link click counter": true, "association checks": true, "webhook deliveries": true, "webhook cleanup": true,
                "conversion webhooks": true, "event retention": true, "mailer": true,
            ]
            #expect(try eventually { try health() == healthy })
            service.application.hits.shutdown()
            #expect(
                try health() == [
                    "change feed": true, "link index": true, "fetch log": true, "hit writer": false, "click tokens": true,
                    "event writer": true,
                    "link click counter": true, "association checks": true, "webhook deliveries": true, "webhook cleanup": true,
                    "conversion webhooks": true, "event retention": true, "mailer": true,
                ])
        }
    }

    @Test func notReadyWhileMigrationsArePending() throws {
        try TestService.with { service in
            // The first migration: it creates tables, so applying it again fails (a later one may be idempotent).
            let first = service.application.migrator.migrations.first!
            _ = try service.application.pool.withConnection { connection in
                try connection.execute("DELETE FROM schema_migrations WHERE version = \(first.version)")
            }
            // `/readyz` answers from its probe's last check: the next one finds the migration pending.
            let deadline = Date().addingTimeInterval(10)
            while try service.request("GET", "/readyz").status != 503, Date() < deadline { usleep(20_000) }
            let ready = try service.request("GET", "/readyz")
            #expect(ready.status == 503)
            #expect(ready.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
            #expect(try ready.json["detail"]?.stringValue?.contains("pending") == true)
            // Applying it again fails (its objects exist) and is rolled back: still not ready.
            #expect(throws: (any Error).self) { try service.application.migrator.migrate(using: service.application.pool) }
            #expect(try service.request("GET", "/readyz").status == 503)
        }
    }

    @Test func metricsCountRequestsByRouteAndStatus() throws {
        try TestService.with { service in
            _ = try service.request("GET", "/healthz")
            _ = try service.request("GET", "/no/such/path")
            let metrics = try service.request("GET", "/metrics")
            #expect(metrics.status == 200)
            #expect(metrics.headers["Content-Type"]?.hasPrefix("text/plain") == true)
            #expect(metrics.text.contains(#"linkd_http_requests_total{method="GET",route="/healthz",status="200"} 1"#))
            #expect(metrics.text.contains("linkd_http_request_duration_seconds_bucket"))
            #expect(metrics.text.contains(#"linkd_db_pool_connections{state="idle"}"#))
        }
    }

    /// `/readyz` and `/metrics` answer operators (any host no link domain governs, the API hostname), never a
    /// link domain's visitors: there they are link paths, clicks like any other. `/healthz` answers everywhere.
    @Test func operationalEndpointsAreLinkPathsOnLinkDomains() throws {
        try TestService.with(configure: { $0.apiHostname = "api.example.net" }) { service in
            _ = try Fixture(service)
            let desktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
            for path in ["/readyz", "/metrics"] {
                for host in ["links.example.com", "LINKS.example.com"] {
                    let click = try service.request("GET", path, headers: [("Host", host), ("User-Agent", desktop)])
                    #expect(click.status == 302, "\(host)\(path)")
                    #expect(click.headers["Location"] == "https://www.example.com\(path)", "\(host)\(path): the web fallback, as any path")
                    #expect(!click.text.contains("linkd_") && !click.text.contains("migrations"))
                }
                for host in ["localhost", "127.0.0.1", "api.example.net", "unknown.example.org"] {
                    let answer = try service.request("GET", path, headers: [("Host", host)])
                    #expect(answer.status == 200, "\(host)\(path)")
                }
            }
            let health = try service.request("GET", "/healthz", headers: [("Host", "links.example.com")])
            #expect(health.status == 200)
        }
    }
}
