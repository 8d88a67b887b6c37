import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// The event pipeline through database outages (docs/EVENTS.md, "Storing"): every event answered `accepted` is
/// stored once, through a restart of PostgreSQL and through a stop of linkd (SIGTERM: `Application.shutdown()`) while
/// the database is away, its events spooled and replayed by the next process; attributed by their times.
@Suite("Events through database outages", .serialized)
struct EventOutageTests {
    static func send(_ service: TestService, _ key: String, _ json: String) throws -> TestResponse {
        try service.request("POST", "/v1/events", key: key, json: json)
    }

    static func rows(_ database: OutageCluster) throws -> [String: (count: Int, value: Int?, via: String)] {
        var found: [String: (count: Int, value: Int?, via: String)] = [:]
        for row in try Connection(database.parameters).query(
            "SELECT idempotency_key, count(*) OVER (PARTITION BY idempotency_key)::int8, value_minor, attribution FROM events")
        {
            let (key, count, value, via) = try row.decode((String, Int, Int?, String).self)
            found[key] = (count, value, via)
        }
        return found
    }

    /// Events sent while PostgreSQL is stopped are answered 202 and stored once it is back: a key stored before the
    /// outage counts once (the stored event kept), and a purchase sent before the open it follows (by time) is the
    /// open's visitor's.
    @Test func eventsAcceptedThroughARestartAreStoredOnceAndPlacedByTime() throws {
        let database = try OutageCluster()
        defer { database.close() }
        let service = try TestService(parameters: database.parameters)
        defer { service.close() }
        let fixture = try Fixture(service)
        _ = try EventsAPITests.promo(fixture)
        try fixture.waitForCatalog { _ in (try? EventsAPITests.token(fixture, "/promo")) != nil }
        try Fixture.expect(
            202, Self.send(service, fixture.key, #"{"name":"purchase","idempotencyKey":"p-0","value":100,"currency":"EUR"}"#))
        #expect(eventually { service.application.events.counters.written == 1 })

        database.cluster.stop()
        let now = Date()
        for index in 0..<50 {
            try Fixture.expect(202, Self.send(service, fixture.key, #"{"name":"signup","idempotencyKey":"s-\#(index)"}"#))
        }
        // The purchase first, the open it follows (by time) after it; and the stored purchase's key again.
        try Fixture.expect(
            202,
            Self.send(
                service, fixture.key,
                #"{"name":"purchase","idempotencyKey":"p-1","visitorId":"v","time":"\#(RFC3339.string(now.addingTimeInterval(2)))"}"#))
        try Fixture.expect(
            202,
            Self.send(
                service, fixture.key,
                """
                {"events":[{"name":"open","idempotencyKey":"o-1","visitorId":"v","time":"\(RFC3339.string(now.addingTimeInterval(1)))",
                            "url":"https://\(fixture.host)/promo"},
                           {"name":"purchase","idempotencyKey":"p-0","value":999,"currency":"EUR"}]}
                """))
        #expect(service.application.events.counters.queued == 53, "held while the database is away")
        try database.cluster.start()
        #expect(
            eventually(timeout: 60) {
                let counters = service.application.events.counters
                return counters.queued == 0 && counters.spooled == 0
            })
        #expect(service.application.events.counters.dropped == 0)
        let rows = try Self.rows(database)
        #expect(rows.count == 53)
        #expect(rows.values.allSatisfy { $0.count == 1 }, "each key once")
        #expect(rows["p-0"]?.value == 100, "the stored event kept")
        #expect(rows["o-1"]?.via == "link_url")
        #expect(rows["p-1"]?.via == "visitor", "placed by its time, after the open sent after it")
    }

    /// linkd stopped (SIGTERM) while PostgreSQL is away: what it accepted goes to the spool at the end of the drain,
    /// and the next process replays it once the database is back; a key in the spool twice (a client's retry) and a
    /// key stored before count once.
    @Test func eventsAcceptedBeforeAStopAreReplayedByTheNextProcessOnce() throws {
        let database = try OutageCluster()
        defer { database.close() }
        let spool = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-events-spool-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: spool) }
        let configure: (inout ServiceConfiguration) -> Void = { $0.hits.spoolDirectory = spool }
        do {
            // The first process, released at the end of this block (its spool directories unlocked, as at its exit).
            let service = try TestService(parameters: database.parameters, configure: configure)
            let fixture = try Fixture(service)
            try Fixture.expect(202, Self.send(service, fixture.key, #"{"name":"signup","idempotencyKey":"stored"}"#))
            #expect(eventually { service.application.events.counters.written == 1 })

            database.cluster.stop()
            for index in 0..<20 {
                try Fixture.expect(202, Self.send(service, fixture.key, #"{"name":"signup","idempotencyKey":"k-\#(index)"}"#))
            }
            try Fixture.expect(202, Self.send(service, fixture.key, #"{"name":"signup","idempotencyKey":"k-0"}"#))
            try Fixture.expect(202, Self.send(service, fixture.key, #"{"name":"signup","idempotencyKey":"stored"}"#))
            service.close() // SIGTERM's path: the writer retries for its drain timeout, then spools
            #expect(service.application.events.counters.spooled == 22)
        }
        let spooled = (try? FileManager.default.contentsOfDirectory(atPath: spool.appendingPathComponent("events").path)) ?? []
        #expect(spooled.contains { $0.hasSuffix(".events") }, "\(spooled)")

        try database.cluster.start()
        let service = try TestService(parameters: database.parameters, configure: configure)
        defer { service.close() }
        #expect(
            eventually(timeout: 60) {
                let counters = service.application.events.counters
                return counters.spooled == 0 && counters.written >= 22
            })
        let rows = try Self.rows(database)
        #expect(rows.count == 21, "\(rows.keys.sorted())")
        #expect(rows.values.allSatisfy { $0.count == 1 }, "each key once")
    }
}
