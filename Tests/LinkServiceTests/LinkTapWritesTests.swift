import Foundation
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// What a campaign of links tapped once each costs the database: every node adds its taps to `links.clicks` every
/// second, one updated row per link tapped (`LinkClickCounter`, `LinkStore.addClicks`).
@Suite("Link taps written")
struct LinkTapWritesTests {
    /// The rows are updated on their own pages (heap-only tuples: no new entry in any of the table's indexes), links
    /// created in bulk included, whose pages a `COPY` fills (migrations/0039).
    @Test func tapsOfLinksCreatedInBulkAreWrittenWithoutNewIndexEntries() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let items = (0..<400).map { index in
                #"{"domain":"\#(fixture.host)","slug":"t\#(index)","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":\#(index + 1)}}}"#
            }
            let made = try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/links/bulk?acknowledgeMoves=true", key: fixture.key, body: items.joined(separator: "\n"),
                    headers: [("Content-Type", "application/x-ndjson")])
            ).json
            let ids = try #require(made["results"]?.arrayValue).compactMap { $0["id"]?.stringValue.flatMap(UUID.init(uuidString:)) }
            #expect(ids.count == 400)
            // A tenth of them tapped in one second, as distinct taps spread over many links are.
            let tapped = Dictionary(uniqueKeysWithValues: ids.enumerated().filter { $0.offset % 10 == 0 }.map { ($0.element, Int64(1)) })
            let (updated, hot) = try service.application.pool.withConnection { connection -> (Int, Int) in
                func counts() throws -> (Int, Int) {
                    let row = try #require(
                        try connection.query("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'links'").first)
                    return (try row.decode(0, as: Int.self), try row.decode(1, as: Int.self))
                }
                // (This backend's counts reach the statistics when it goes idle after `pg_stat_force_next_flush()`.)
                _ = try connection.query("SELECT pg_stat_force_next_flush()")
                let before = try counts()
                try LinkStore.addClicks(tapped, on: connection)
                _ = try connection.query("SELECT pg_stat_force_next_flush()")
                let after = try counts()
                return (after.0 - before.0, after.1 - before.1)
            }
            #expect(updated == tapped.count)
            #expect(hot >= tapped.count * 9 / 10, "\(hot) of \(updated) updates stayed on their pages")
        }
    }
}
