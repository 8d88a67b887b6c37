import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// Dates linkd accepts: one range and one calendar through every door (docs/LINKS.md, "Dates and numbers"), and rows
/// whose dates lie outside it (written by SQL) read, listed, exported, changed and deleted like any other.
@Suite("Dates through every door")
struct TimestampInputTests {
    /// Outside the range: year 0, before the Gregorian reform, just before 1970; and forms that are no date.
    static let outOfRange = [
        "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "1500-01-01T00:00:00Z", "1969-12-31T23:59:59.999Z",
        "1970-01-01T00:30:00+01:00",
    ]

    private static func send(
        _ fixture: Fixture, _ method: String, _ path: String, _ contentType: String, _ body: String
    ) throws -> TestResponse {
        try fixture.service.request(method, path, key: fixture.key, body: body, headers: [("Content-Type", contentType)])
    }

    private static func errorPointers(_ value: JSONValue?) -> [String] {
        value?["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
    }

    private static func problemColumns(_ report: JSONValue) -> [String] {
        report["results"]?.arrayValue?.flatMap { $0["problems"]?.arrayValue ?? [] }.compactMap { $0["column"]?.stringValue } ?? []
    }

    @Test func aDateOutsideTheRangeIsRefusedAtItsFieldThroughEveryDoor() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let kept = try fixture.createLink(#"{"domain":"links.example.com","slug":"kept","url":"https://www.example.com"}"#)
            let id = try kept.json["id"]!.stringValue!
            let takeoutHeader = "Short link,Deep link (link),Archived,Link name,Creation timestamp"
            for text in Self.outOfRange {
                // Single create and PATCH: 422 at the pointer, nothing written.
                try fixture.expectRefused(
                    "POST", "/v1/links?acknowledgeMoves=true",
                    #"{"domain":"links.example.com","url":"https://www.example.com","expiresAt":"\#(text)"}"#,
                    pointers: ["/expiresAt"])
                try fixture.expectRefused("PATCH", "/v1/links/\(id)", #"{"expiresAt":"\#(text)"}"#, pointers: ["/expiresAt"])
                // Bulk: the item refused at its pointer.
                let bulk = try Fixture.expect(
                    200,
                    Self.send(
                        fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json",
                        #"[{"domain":"links.example.com","url":"https://www.example.com","expiresAt":"\#(text)"}]"#)
                ).json
                #expect(bulk["created"] == .number("0"), "\(text): \(bulk)")
                #expect(Self.errorPointers(bulk["results"]?.arrayValue?.first?["error"]) == ["/0/expiresAt"], "\(text): \(bulk)")
                // linkd's CSV: the row refused at its column.
                let csv = try Fixture.expect(
                    200,
                    Self.send(
                        fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=csv", "text/csv",
                        "domain,url,expiresAt\nlinks.example.com,https://www.example.com,\(text)\n")
                ).json
                #expect(csv["created"] == .number("0") && Self.problemColumns(csv) == ["expiresAt"], "\(text): \(csv)")
                // Firebase's Takeout: an archived row created then, refused at its creation time.
                let firebase = try Fixture.expect(
                    200,
                    Self.send(
                        fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=firebase", "text/csv",
                        "\(takeoutHeader)\nhttps://links.example.com/old,https://www.example.com/o,true,Old,\(text)\n")
                ).json
                #expect(
                    firebase["created"] == .number("0") && Self.problemColumns(firebase) == ["creation timestamp"], "\(text): \(firebase)")
                // Analytics: a 400 naming the parameter.
                for name in ["from", "to"] {
                    let query = name == "from" ? "from=\(text)&to=2026-01-01T00:00:00Z" : "from=1970-01-01T00:00:00Z&to=\(text)"
                    let analytics = try service.request(
                        "GET", "/v1/analytics/summary?" + query.replacingOccurrences(of: "+", with: "%2B"), key: fixture.key)
                    #expect(analytics.status == 400, "\(query): \(analytics.text)")
                    #expect(try analytics.json["detail"]?.stringValue?.hasPrefix(name) == true, "\(query): \(analytics.text)")
                }
            }
            let links = try Fixture.expect(200, service.request("GET", "/v1/links", key: fixture.key)).json
            #expect(links["items"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } == ["kept"])
            #expect(try Fixture.expect(200, service.request("GET", "/v1/links/\(id)", key: fixture.key)).json["expiresAt"] == nil)
        }
    }

    /// Each date as sent and as linkd gives it back: UTC, to the millisecond (further digits are dropped).
    static let accepted: [(sent: String, kept: String)] = [
        ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00.000Z"),
        ("9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"),
        ("9999-12-31T23:59:59.9999999Z", "9999-12-31T23:59:59.999Z"),
        ("2030-06-01T12:34:56.789123Z", "2030-06-01T12:34:56.789Z"),
        ("2030-01-01T00:30:00+01:00", "2029-12-31T23:30:00.000Z"),
        ("4000-02-29T00:00:00.001Z", "4000-02-29T00:00:00.001Z"),
    ]

    @Test func anAcceptedDateIsGivenBackAsAcknowledgedThroughEveryDoor() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            for (index, (sent, kept)) in Self.accepted.enumerated() {
                let created = try fixture.createLink(
                    """
                    {"domain":"links.example.com","slug":"d\(index)","url":"https://www.example.com","expiresAt":"\(sent)"}
                    """)
                #expect(try created.json["expiresAt"] == .string(kept), "\(sent)")
                let id = try created.json["id"]!.stringValue!
                let read = try Fixture.expect(200, service.request("GET", "/v1/links/\(id)", key: fixture.key))
                #expect(try read.json["expiresAt"] == .string(kept), "\(sent)")
                // Sent back as it came, the date does not move.
                for _ in 0..<2 {
                    let patched = try Fixture.expect(
                        200,
                        service.request(
                            "PATCH", "/v1/links/\(id)", key: fixture.key,
                            json: #"{"expiresAt":"\#(kept)"}"#))
                    #expect(try patched.json["expiresAt"] == .string(kept), "\(sent)")
                }
                let bulk = try Fixture.expect(
                    200,
                    Self.send(
                        fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json",
                        #"[{"domain":"links.example.com","url":"https://www.example.com","expiresAt":"\#(sent)"}]"#)
                ).json
                #expect(bulk["results"]?.arrayValue?.first?["expiresAt"] == .string(kept), "\(sent): \(bulk)")
                let csv = try Fixture.expect(
                    200,
                    Self.send(
                        fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=csv", "text/csv",
                        "domain,url,expiresAt\nlinks.example.com,https://www.example.com,\(sent)\n")
                ).json
                #expect(csv["results"]?.arrayValue?.first?["link"]?["expiresAt"] == .string(kept), "\(sent): \(csv)")
            }
            let list = try Fixture.expect(200, service.request("GET", "/v1/links?limit=100", key: fixture.key)).json
            let listed = Set(list["items"]?.arrayValue?.compactMap { $0["expiresAt"]?.stringValue } ?? [])
            #expect(listed == Set(Self.accepted.map(\.kept)))
            let export = try Fixture.expect(200, service.request("GET", "/v1/links/export?limit=100", key: fixture.key)).text
            for (_, kept) in Self.accepted { #expect(export.contains(",\(kept),"), "\(kept)") }
            // The earliest archived Takeout row.
            let firebase = try Fixture.expect(
                200,
                Self.send(
                    fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=firebase", "text/csv",
                    """
                    Short link,Deep link (link),Archived,Creation timestamp
                    https://links.example.com/epoch,https://www.example.com/e,true,1970-01-01 00:00:00
                    """)
            ).json
            #expect(firebase["results"]?.arrayValue?.first?["link"]?["expiresAt"] == .string("1970-01-01T00:00:00.000Z"), "\(firebase)")
        }
    }

    /// What PostgreSQL can hold beyond linkd's range, as SQL would write it, and as linkd gives it back.
    static let stored: [(sql: String, shown: String)] = [
        ("0001-01-01 00:00:00+00 BC", "0000-01-01T00:00:00.000Z"),
        ("4714-11-24 00:00:00+00 BC", "-004713-11-24T00:00:00.000Z"),
        ("0001-01-01 00:00:00+00", "0001-01-01T00:00:00.000Z"),
        ("1500-01-01 12:00:00.25+00", "1500-01-01T12:00:00.250Z"),
        ("294276-12-31 23:59:59+00", "+294276-12-31T23:59:59.000Z"),
        ("infinity", "infinity"),
        ("-infinity", "-infinity"),
    ]

    @Test func aRowOutsideTheRangeInTheDatabaseBreaksNothing() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            var ids: [String] = []
            for index in Self.stored.indices {
                let created = try fixture.createLink(
                    """
                    {"domain":"links.example.com","slug":"s\(index)","url":"https://www.example.com","expiresAt":"2030-01-01T00:00:00Z"}
                    """)
                ids.append(try created.json["id"]!.stringValue!)
            }
            try service.application.pool.withConnection { connection in
                for (index, (sql, _)) in Self.stored.enumerated() {
                    try connection.execute("UPDATE links SET expires_at = \(sql)::timestamptz WHERE id = \(UUID(uuidString: ids[index])!)")
                }
                try connection.execute("UPDATE links SET created_at = '0044-03-15 12:00:00+00 BC' WHERE id = \(UUID(uuidString: ids[0])!)")
            }
            let list = try Fixture.expect(200, service.request("GET", "/v1/links?limit=100", key: fixture.key)).json
            let shown = Dictionary(
                uniqueKeysWithValues: list["items"]?.arrayValue?.map { ($0["id"]!.stringValue!, $0["expiresAt"]?.stringValue ?? "") } ?? [])
            for (index, (sql, text)) in Self.stored.enumerated() { #expect(shown[ids[index]] == text, "\(sql)") }
            #expect(list["items"]?.arrayValue?.first?["createdAt"] == .string("-000043-03-15T12:00:00.000Z"))
            let export = try Fixture.expect(200, service.request("GET", "/v1/links/export", key: fixture.key)).text
            // A year before 1 BC starts with `-`, which the export writes with a leading quote (docs/LINKS-IMPORT.md, "Formulas").
            for (_, text) in Self.stored { #expect(export.contains(",\(CSVFormulaEscape.neutralised(text)),"), "\(text)") }
            #expect(
                try Fixture.expect(200, service.request("GET", "/v1/audit", key: fixture.key)).json["items"]?.arrayValue?.isEmpty == false)
            for (index, (sql, text)) in Self.stored.enumerated() {
                let read = try Fixture.expect(200, service.request("GET", "/v1/links/\(ids[index])", key: fixture.key))
                #expect(try read.json["expiresAt"] == .string(text), "\(sql)")
                // A click on it: expired, or open for ever; never a 500.
                let click = try service.request(
                    "GET", "/s\(index)", headers: [("Host", fixture.host), ("User-Agent", "Mozilla/5.0 (X11; Linux x86_64)")])
                #expect(click.status < 500, "\(sql): \(click.status)")
                // A change of another field keeps the date as the database holds it.
                let patched = try Fixture.expect(
                    200, service.request("PATCH", "/v1/links/\(ids[index])", key: fixture.key, json: #"{"name":"renamed"}"#))
                #expect(try patched.json["expiresAt"] == .string(text), "\(sql)")
                try service.application.pool.withConnection { connection in
                    let kept = try connection.query(
                        "SELECT expires_at::text = \(sql)::timestamptz::text FROM links WHERE id = \(UUID(uuidString: ids[index])!)")
                    #expect(try kept[0].decode(0, as: Bool.self), "\(sql)")
                }
                try Fixture.expect(204, service.request("DELETE", "/v1/links/\(ids[index])", key: fixture.key))
            }
            #expect(try Fixture.expect(200, service.request("GET", "/v1/links", key: fixture.key)).json["items"] == .array([]))
        }
    }

    @Test func theOneReaderAndWriterAgreeOnOneCalendar() {
        // Proleptic Gregorian both ways: the day numbers of dates across the reform and leap centuries.
        let cases: [(String, Double)] = [
            ("1970-01-01T00:00:00Z", 0), ("2000-02-29T00:00:00Z", 951_782_400),
            ("2100-03-01T00:00:00Z", 4_107_542_400), ("9999-12-31T23:59:59Z", 253_402_300_799),
        ]
        for (text, seconds) in cases {
            #expect(RFC3339.read(text) == .date(Date(timeIntervalSince1970: seconds)), "\(text)")
        }
        for seconds in [0, 1_000_000_000.5, 4_107_542_400.001, 253_402_300_799.999] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(RFC3339.read(RFC3339.string(date)) == .date(date), "\(seconds)")
        }
        #expect(RFC3339.string(Date(timeIntervalSince1970: -12_219_292_800)) == "1582-10-15T00:00:00.000Z")
        #expect(RFC3339.string(Date(timeIntervalSince1970: -12_219_292_801)) == "1582-10-14T23:59:59.000Z")
        #expect(RFC3339.string(Date(timeIntervalSince1970: -62_167_219_200)) == "0000-01-01T00:00:00.000Z")
        #expect(RFC3339.string(Date(timeIntervalSince1970: 253_402_300_800)) == "+010000-01-01T00:00:00.000Z")
        #expect(RFC3339.read("0000-01-01T00:00:00Z") == .outOfRange)
        #expect(RFC3339.read("2026-02-29T00:00:00Z") == .malformed)
    }
}
