import Foundation
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// The fetch log's write into `association_fetches`, read back from the database itself.
@Suite("Association fetch log")
struct AssociationFetchLogTests {
    /// Stopping the service writes what is pending (without waiting for the next flush): the latest fetch per host
    /// and file, not 404s, and never over a newer fetch another node wrote.
    @Test func shutdownWritesTheLatestFetchPerHostAndFile() throws {
        let service = try TestService()
        defer { service.close() }
        let fixture = try Fixture(service)
        let database = try #require(service.database)
        let connection = try Connection(database.parameters)
        // Another node saw an assetlinks fetch later than any this one will record.
        try connection.execute(
            """
            INSERT INTO association_fetches (hostname, file, fetched_at, user_agent, etag, status)
            VALUES (\(fixture.host), 'assetlinks.json', now() + interval '1 hour', 'other-node', NULL, 200)
            """)
        _ = try service.request(
            "GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host), ("User-Agent", "first")])
        let latest = try service.request(
            "GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host), ("User-Agent", "AASA-Bot/1.0.0")])
        let etag = try #require(latest.headers["ETag"])
        let notModified = try service.request(
            "GET", "/.well-known/apple-app-site-association",
            headers: [("Host", fixture.host), ("User-Agent", "AASA-Bot/1.0.1"), ("If-None-Match", etag)])
        #expect(notModified.status == 304)
        _ = try service.request("GET", "/.well-known/assetlinks.json", headers: [("Host", fixture.host), ("User-Agent", "verifier")])
        #expect(
            try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "unknown.example.org")]).status == 404)

        service.application.shutdown()

        let rows = try connection.query(
            """
            SELECT hostname, file, user_agent, coalesce(etag, ''), status FROM association_fetches ORDER BY hostname, file
            """
        ).map { try $0.decode((String, String, String, String, Int).self) }
        #expect(rows.count == 2, "\(rows)")
        #expect(
            rows.first.map { [$0.0, $0.1, $0.2, $0.3, String($0.4)] } == [
                fixture.host, "apple-app-site-association", "AASA-Bot/1.0.1", etag, "304",
            ])
        #expect(rows.last.map { [$0.1, $0.2] } == ["assetlinks.json", "other-node"], "a newer fetch is not overwritten")
    }
}
