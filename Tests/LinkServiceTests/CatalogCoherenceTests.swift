import EmbeddedPostgres
import Foundation
import LinkKit
@testable import LinkService
import Observability
import Postgres
import Testing
import TestSupport

@Suite("Catalog coherence across nodes and outages")
struct CatalogCoherenceTests {
    func aasa(port: Int, host: String = "links.example.com") throws -> TestResponse {
        try HTTPTestClient.request(port: port, method: "GET", path: "/.well-known/apple-app-site-association", headers: [("Host", host)])
    }

    /// `eventually`, timed: how long `condition` took to hold, or nil when it did not.
    func timeUntil(_ condition: () throws -> Bool) rethrows -> Double? {
        let start = Date()
        return try eventually(condition) ? Date().timeIntervalSince(start) : nil
    }

    @Test func aChangeThroughOneNodeIsServedByTheOtherWithinOneSecond() throws {
        try TestService.with { first in
            let fixture = try Fixture(first)
            let second = try TestService(parameters: first.database!.parameters)
            defer { second.close() }
            #expect(try aasa(port: second.port).body == aasa(port: first.port).body)
            try Fixture.expect(
                201,
                first.request(
                    "POST", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                    json: #"{"apps":["\#(fixture.iosApp)"],"path":"/from-node-one/*","position":0}"#))
            let elapsed = try timeUntil { try aasa(port: second.port).text.contains("/from-node-one/*") }
            let seconds = try #require(elapsed)
            #expect(seconds < 1.0, "took \(seconds) s")
            // Deleting the domain on one node removes it from the other.
            let domain = try first.request("GET", "/v1/domains/\(fixture.host)", key: fixture.key)
            try Fixture.expect(
                204,
                first.request("DELETE", "/v1/domains/\(fixture.host)", key: fixture.key, headers: [("If-Match", domain.headers["ETag"]!)]))
            #expect(try eventually { try aasa(port: second.port).status == 404 })
        }
    }

    /// Issue 29: a stored link created, edited or deleted through one node is served so by the other, which had
    /// answered its slug before (and kept it as absent): `linkd_links` drops what it kept of the domain.
    @Test func aLinkCreatedEditedOrDeletedOnOneNodeIsServedSoByTheOther() throws {
        try TestService.with { first in
            let fixture = try Fixture(first)
            let second = try TestService(parameters: first.database!.parameters)
            defer { second.close() }
            func resolve(on service: TestService) throws -> JSONValue {
                let url = "https://\(fixture.host)/spring".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                return try Fixture.expect(200, service.request("GET", "/v1/resolve?url=\(url)", key: fixture.key)).json
            }
            #expect(try resolve(on: second)["link"] == nil)
            let created = try Fixture.expect(
                201,
                first.request(
                    "POST", "/v1/links?acknowledgeMoves=true", key: fixture.key,
                    json: """
                        {"domain":"\(fixture.host)","slug":"spring","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":42}}}
                        """))
            let id = try #require(try created.json["id"]?.stringValue)
            let served = try #require(try timeUntil { try resolve(on: second)["link"]?["id"]?.stringValue == id })
            #expect(served < 1.0, "took \(served) s")
            #expect(try resolve(on: second)["destination"]?["params"]?["id"] == .number("42"))

            try Fixture.expect(
                200,
                first.request(
                    "PATCH", "/v1/links/\(id)", key: fixture.key,
                    json: #"{"destination":{"type":"widgetDetail","params":{"id":7}}}"#))
            #expect(try eventually { try resolve(on: second)["destination"]?["params"]?["id"] == .number("7") })

            try Fixture.expect(204, first.request("DELETE", "/v1/links/\(id)", key: fixture.key))
            #expect(try eventually { try resolve(on: second)["link"] == nil })
            #expect(try resolve(on: second)["destination"] == nil, "the rules give the slug no destination")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func theLastGoodCatalogServesWhileTheDatabaseIsDownAndChangesArriveAfterItReturns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-outage-\(UUID())")
        let cluster = EmbeddedCluster(dataDirectory: directory, logger: .quiet, durable: false)
        try cluster.start()
        defer {
            cluster.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        let parameters = try ConnectionParameters(cluster.connectionString)
        let service = try TestService(parameters: parameters)
        defer { service.close() }
        let fixture = try Fixture(service)
        let before = try aasa(port: service.port)
        #expect(before.status == 200)

        cluster.stop()
        #expect(try aasa(port: service.port).body == before.body, "served from memory while the database is down")
        #expect(try eventually { try service.request("GET", "/readyz").status == 503 })

        try cluster.start()
        #expect(try eventually { try service.request("GET", "/readyz").status == 200 })
        // Retry the write until the pool has replaced its broken connections.
        #expect(
            try eventually {
                try service.request(
                    "POST", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                    json: #"{"apps":["\#(fixture.iosApp)"],"path":"/after-restart/*"}"#
                ).status == 201
            })
        #expect(try eventually { try aasa(port: service.port).text.contains("/after-restart/*") })
    }
}
