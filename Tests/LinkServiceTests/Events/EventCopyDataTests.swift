import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// The event writer's binary COPY (`EventCopyData`, docs/EVENTS.md "Storing"): every field of an event has its column,
/// and what is written reads back as it was.
@Suite("Event COPY data")
struct EventCopyDataTests {
    /// The columns written are the `Codable` keys' (`EventColumns`) with the workspace and the time received: a field
    /// added to `Event` or `EventAttribution` and not written fails here.
    @Test func everyFieldOfAnEventHasItsColumn() {
        #expect(EventCopyData.columns.count == Set(EventCopyData.columns).count)
        #expect(Set(EventCopyData.columns) == Set(["workspace_id", "received_at"] + EventColumns.names))
    }

    /// Every field, set and unset, hostile text and a key stored before included, reads back as written.
    @Test func whatIsWrittenReadsBackAsItWas() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let app = UUID(uuidString: fixture.androidApp)!
            let workspace = try service.application.pool.withConnection {
                try $0.query("SELECT workspace_id FROM apps WHERE id = \(app)").first!.decode(0, as: UUID.self)
            }
            let time = Date(timeIntervalSince1970: 1_796_000_000.123456)
            var full = Event(
                app: app, kind: .named, name: "purchase", occurredAt: time, value: 1299, currency: "EUR",
                idempotencyKey: "k\t1\\\n\0x", visitorID: "visitor \"1\"", clickTokenHash: String(repeating: "a", count: 64),
                url: "https://example.com/p?q=1&r=ü")
            full.attribution = EventAttribution(
                via: .clickToken, linkID: UUID(), utmSource: "s", utmMedium: "m", utmCampaign: "c", utmTerm: "t",
                utmContent: "ç", target: "ios", variant: "B", country: "DE", os: "Android")
            let bare = Event(kind: .open, name: "open", occurredAt: time, idempotencyKey: "k2")
            let records = [full, bare].map { EventRecord(workspace: workspace, receivedAt: time.addingTimeInterval(1), event: $0) }
            let written = try service.application.pool.withTransaction { try EventStore.write(records, on: $0) }
            #expect(written == 2)
            // Sent again with a new one: the stored key is left as it was, the new one written.
            var again = records
            again[0].event.name = "signup"
            again.append(
                EventRecord(
                    workspace: workspace, receivedAt: time, event: Event(kind: .named, name: "x", occurredAt: time, idempotencyKey: "k3")))
            #expect(try service.application.pool.withTransaction { try EventStore.write(again, on: $0) } == 1)

            let rows = try service.application.pool.withConnection {
                try $0.query(
                    """
                    SELECT row_to_json(e)::text, app_id, kind, name, occurred_at, received_at, value_minor, currency, idempotency_key,
                           visitor_id, click_token_hash, url
                    FROM events e WHERE workspace_id = \(workspace) ORDER BY idempotency_key
                    """)
            }
            try #require(rows.count == 3)
            for (row, event) in zip(rows, [full, bare]) {
                let expected = event.idempotencyKey.replacingOccurrences(of: "\0", with: "")
                #expect(try row.decode(8, as: String.self) == expected, "NUL left out, the rest kept")
                #expect(try EventColumns.attribution(fromRow: row.decode(0, as: String.self)) == event.attribution)
                #expect(try row.decode(1, as: UUID?.self) == event.app)
                #expect(try row.decode(2, as: String.self) == event.kind.rawValue)
                #expect(try row.decode(3, as: String.self) == event.name)
                #expect(abs(try row.decode(4, as: Date.self).timeIntervalSince(time)) < 0.000_001)
                #expect(abs(try row.decode(5, as: Date.self).timeIntervalSince(time.addingTimeInterval(1))) < 0.000_001)
                #expect(try row.decode(6, as: Int64?.self) == event.value)
                #expect(try row.decode(7, as: String?.self) == event.currency)
                #expect(try row.decode(9, as: String?.self) == event.visitorID)
                #expect(try row.decode(10, as: String?.self) == event.clickTokenHash)
                #expect(try row.decode(11, as: String?.self) == event.url)
            }
        }
    }
}

/// `EventInput.isName` is `EventInput.namePattern` as the table's CHECK reads it (`$` at the very end: a name ending in a
/// line break, which Foundation's regular expression lets through, is refused before it is acknowledged).
@Test func anEventNameIsCheckedAsItsPatternSays() {
    let names: [(String, Bool)] = [
        ("purchase", true), ("a", true), ("sign_up.v2", true), ("a0", true), (String(repeating: "a", count: 64), true),
        ("", false), ("A", false), ("0a", false), ("_a", false), (".a", false), ("purchase!", false), ("pur chase", false),
        ("é", false), ("aé", false), (String(repeating: "a", count: 65), false), ("a\n", false), ("a\0", false),
    ]
    for (name, valid) in names {
        #expect(EventInput.isName(name) == valid, "\(name.debugDescription)")
    }
}
