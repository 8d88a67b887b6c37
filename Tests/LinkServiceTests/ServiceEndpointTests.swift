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
                return Dictionary(uniqueKeysWithValues: services.compactMap { entry in
                    guard let name = entry["name"]?.stringValue, case .bool(let healthy)? = entry["healthy"] else { return nil }
                    return (name, healthy)
                })
            }
            // The change feed is healthy once its listener has connected, which a loaded machine can delay.
            let healthy = ["change feed": true, "fetch log": true, "hit writer": true, "click tokens": true, "link click counter": true,
                           "association checks": true, "webhook deliveries": true]
            #expect(try eventually { try health() == healthy })
            service.application.hits.shutdown()
            #expect(try health() == ["change feed": true, "fetch log": true, "hit writer": false, "click tokens": true,
                                     "link click counter": true, "association checks": true, "webhook deliveries": true])
        }
    }

    @Test func notReadyWhileMigrationsArePending() throws {
        try TestService.with { service in
            // The first migration: it creates tables, so applying it again fails (a later one may be idempotent).
            let first = service.application.migrator.migrations.first!
            _ = try service.application.pool.withConnection { connection in
                try connection.execute("DELETE FROM schema_migrations WHERE version = \(first.version)")
            }
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
}
