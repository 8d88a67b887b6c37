import EmbeddedPostgres
import Foundation
import LinkKit
@testable import LinkService
import Observability
import Postgres
import Testing
import TestSupport

/// Outage tests run against a PostgreSQL cluster of their own: the shared test cluster cannot be stopped
/// without breaking the suites running beside them.
@Suite("Hit pipeline through database outages", .serialized)
struct HitSpoolTests {
    /// A private cluster, migrated, and a pool on it.
    final class PrivateDatabase: @unchecked Sendable {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-hits-outage-\(UUID().uuidString.prefix(8))")
        let cluster: EmbeddedCluster
        let pool: ConnectionPool

        init() throws {
            cluster = EmbeddedCluster(dataDirectory: directory.appendingPathComponent("pg"), logger: .quiet, durable: false)
            try cluster.start()
            pool = ConnectionPool(
                parameters: try ConnectionParameters(cluster.connectionString), maxConnections: 2, acquireTimeout: .seconds(2),
                logger: .quiet)
            try Migrator(migrations: Migration.load(from: migrationsDirectory), logger: .quiet).migrate(using: pool)
        }

        func close() {
            pool.shutdown()
            cluster.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        func paths() throws -> [String] {
            try pool.withConnection { try $0.query("SELECT path FROM hits ORDER BY id").map { try $0.decode(0, as: String.self) } }
        }

        func rolledUp() throws -> Int {
            try pool.withConnection { connection in
                try HitFold.fold(on: connection)
                return try connection.query("SELECT coalesce(sum(hits), 0)::int8 FROM hit_cubes_hourly WHERE cube = 1").first!.decode(
                    0, as: Int.self)
            }
        }
    }

    @Test func databaseRestartedMidLoadLosesNothingAndKeepsOrder() throws {
        let database = try PrivateDatabase()
        defer { database.close() }
        let spool = database.directory.appendingPathComponent("spool")
        let batcher = try HitBatcher(
            pool: database.pool, configuration: HitsConfiguration(spoolDirectory: spool, memoryLimit: 2_000, spoolSegmentSize: 3_000),
            logger: .quiet)
        batcher.start()
        let workspace = UUID()
        var next = 0
        func send(_ count: Int, pause: UInt32 = 0) {
            for _ in 0..<count {
                batcher.record(.sample(workspace: workspace, path: "/\(next)"))
                next += 1
                if pause > 0, next % 500 == 0 { usleep(pause) } // the load's pace, not a wait
            }
        }
        send(5_000)
        #expect(eventually { batcher.counters.written == 5_000 })

        database.cluster.stop()
        send(12_000, pause: 20_000) // ~0.5 s of load with the database down
        #expect(eventually { batcher.counters.spooled > 0 })
        let during = batcher.counters
        #expect(during.written == 5_000)
        #expect(during.accepted == 17_000)
        #expect(during.spooled + during.queued == 12_000)

        try database.cluster.start()
        send(5_000, pause: 5_000)
        #expect(eventually { batcher.counters.written == 22_000 })
        batcher.shutdown()

        let counters = batcher.counters
        #expect(counters.accepted == 22_000)
        #expect(counters.written == 22_000)
        #expect(counters.dropped == 0)
        #expect(counters.spooled == 0)
        #expect(counters.spooledTotal > 0)
        #expect(try database.paths() == (0..<22_000).map { "/\($0)" })
        #expect(try database.rolledUp() == 22_000)
        let left = try FileManager.default.contentsOfDirectory(atPath: spool.path).filter { $0.hasPrefix("segment-") }
        #expect(left.isEmpty)
    }

    @Test func hitsSpooledAtShutdownAreReplayedByTheNextProcess() throws {
        let database = try PrivateDatabase()
        defer { database.close() }
        let spool = database.directory.appendingPathComponent("spool")
        let configuration = HitsConfiguration(spoolDirectory: spool, memoryLimit: 1_000)
        let workspace = UUID()

        // First "process": the database goes away and stays away past the drain timeout.
        do {
            let first = try HitBatcher(pool: database.pool, configuration: configuration, logger: .quiet, drainTimeout: .milliseconds(500))
            first.start()
            for index in 0..<1_000 { first.record(.sample(workspace: workspace, path: "/\(index)")) }
            #expect(eventually { first.counters.written == 1_000 })
            database.cluster.stop()
            for index in 1_000..<3_000 { first.record(.sample(workspace: workspace, path: "/\(index)")) }
            first.shutdown()
            #expect(first.counters.written == 1_000)
            #expect(first.counters.spooled == 2_000)
            #expect(first.counters.dropped == 0)
        }

        // Second "process": finds the spool and replays it, before its own hits.
        try database.cluster.start()
        let second = try HitBatcher(pool: database.pool, configuration: configuration, logger: .quiet)
        #expect(second.counters.spooled == 2_000)
        second.start()
        for index in 3_000..<3_500 { second.record(.sample(workspace: workspace, path: "/\(index)")) }
        second.shutdown()
        #expect(second.counters.spooled == 0)
        #expect(second.counters.written == 2_500)
        #expect(try database.paths() == (0..<3_500).map { "/\($0)" })
        #expect(try database.rolledUp() == 3_500)
    }

    @Test func aSpoolDirectoryServesOneProcessAtATime() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-spool-lock-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try HitSpool(directory: directory, segmentSize: 10, logger: .quiet)
        #expect(throws: HitPipelineError.self) { _ = try HitSpool(directory: directory, segmentSize: 10, logger: .quiet) }
        _ = first
    }

    @Test func spoolLinesRoundTrip() throws {
        let hit = Hit(
            time: Date(timeIntervalSince1970: 1_764_400_000.123456), workspaceID: UUID(), hostname: "h.example", path: "/a\tb\\c\nd",
            query: "x=1&y=\r", outcome: .invalidParam, appID: UUID(), ruleID: nil, destinationType: "widget", source: .resolve,
            platform: .android, isBot: true, referrerHost: nil, visitorHash: "abc")
        let decoded = try #require(Hit(spoolLine: Self.line(hit)))
        #expect(decoded.micros == hit.micros)
        var expected = hit
        expected.time = decoded.time
        #expect(decoded == expected)
        #expect(Hit(spoolLine: "12\tbroken") == nil)
        // A targeted link's target and variant: 27 fields, read back.
        var targeted = hit
        (targeted.target, targeted.variant, targeted.country) = ("germany", "b", "DE")
        let line = Self.line(targeted)
        #expect(line.split(separator: "\t", omittingEmptySubsequences: false).count == 27)
        #expect(Hit(spoolLine: line).map { ($0.target, $0.variant, $0.country) } ?? (nil, nil, nil) == ("germany", "b", "DE"))
        // What a click got is the 15th field, present only when set.
        var click = hit
        click.served = .landing
        #expect(Self.line(click).hasSuffix("\tabc\tlanding"))
        #expect(Hit(spoolLine: Self.line(click))?.served == .landing)
        #expect(Hit(spoolLine: Self.line(click).replacingOccurrences(of: "landing", with: "bogus")[...]) == nil)
    }

    /// The line format is what spools written by earlier versions hold: it must not change.
    @Test func spoolLinesKeepTheirFormat() throws {
        let workspace = try #require(UUID(uuidString: "0E1F2A3B-4C5D-6E7F-8091-A2B3C4D5E6F7"))
        let hit = Hit(
            time: Date(timeIntervalSince1970: 1_764_400_000.5), workspaceID: workspace, hostname: "h.example",
            path: "/a\u{0}b\tc", query: nil, outcome: .openApp, appID: nil, ruleID: workspace, destinationType: nil,
            source: .click, platform: .ios, isBot: false, referrerHost: "r\\s", visitorHash: "ff")
        let expected =
            "1764400000500000\t0e1f2a3b-4c5d-6e7f-8091-a2b3c4d5e6f7\th.example\t/ab\\tc\t\\N\topen_app\t\\N\t"
            + "0e1f2a3b-4c5d-6e7f-8091-a2b3c4d5e6f7\t\\N\tclick\tios\tf\tr\\\\s\tff"
        #expect(String(Self.line(hit)) == expected)
        #expect(Hit(spoolLine: Self.line(hit))?.path == "/ab\tc")
    }

    /// A hit with a link or a campaign writes 21 fields (served `\N` when unset); every earlier form still reads.
    @Test func spoolLinesCarryLinksAndCampaigns() throws {
        let link = try #require(UUID(uuidString: "11111111-2222-3333-4444-555555555555"))
        var hit = Hit.sample(
            workspace: link, host: "h.example", path: "/s", time: Date(timeIntervalSince1970: 1_764_400_000.5), visitor: "ff",
            link: link, campaign: Hit.Campaign(source: "news\tletter", campaign: "spring"))
        let line = Self.line(hit)
        #expect(line.hasSuffix("\tff\t\\N\t11111111-2222-3333-4444-555555555555\tnews\\tletter\t\\N\tspring\t\\N\t\\N"))
        let decoded = try #require(Hit(spoolLine: line))
        #expect(decoded.linkID == link)
        #expect(decoded.campaign == hit.campaign)
        #expect(decoded.served == nil)
        hit.served = .redirect
        hit.campaign = nil
        #expect(Hit(spoolLine: Self.line(hit))?.served == .redirect)
        #expect(Hit(spoolLine: Self.line(hit))?.linkID == link)
        #expect(Hit(spoolLine: Self.line(hit))?.campaign == nil)
        #expect(Hit(spoolLine: Self.line(hit).replacingOccurrences(of: "11111111-", with: "xxxxxxxx-")[...]) == nil)
    }

    /// Spool segments written by earlier versions (14 fields, and 15 with `served`) are replayed by this one, beside
    /// a line of its own, into the database and the rollups.
    @Test func spoolsOfEarlierVersionsAreReplayed() throws {
        let workspace = UUID().uuidString.lowercased(), link = UUID()
        let micros = Int64(Date().timeIntervalSince1970) * 1_000_000
        var lines = [
            "\(micros)\t\(workspace)\th.example\t/old\t\\N\topen_app\t\\N\t\\N\t\\N\tclick\tios\tf\t\\N\tv1",
            "\(micros)\t\(workspace)\th.example\t/served\tutm_source=x\topen_app\t\\N\t\\N\t\\N\tclick\tios\tf\t\\N\tv1\tlanding",
        ]
        lines.append(
            String(
                Self.line(
                    Hit.sample(
                        workspace: UUID(uuidString: workspace), host: "h.example", path: "/new", link: link,
                        campaign: Hit.Campaign(campaign: "spring")))))
        try Self.replayed(lines) { harness in
            let rows = try harness.pool.withConnection { connection in
                try connection.query("SELECT path, served, link_id::text, utm_campaign FROM hits ORDER BY id")
                    .map { try $0.decode((String, String?, String?, String?).self) }
            }
            #expect(rows.map(\.0) == ["/old", "/served", "/new"])
            #expect(rows.map(\.1) == [nil, "landing", nil])
            #expect(rows.map(\.2) == [nil, nil, link.uuidString.lowercased()])
            #expect(rows.map(\.3) == [nil, nil, "spring"])
            try harness.fold()
            #expect(try harness.count("SELECT sum(hits)::int8 FROM hit_cubes_hourly WHERE cube = 1") == 3)
            #expect(
                try harness.count("SELECT sum(hits)::int8 FROM hit_cubes_hourly WHERE cube = 4 AND d5 = 'spring' AND d1 IS NOT NULL") == 1)
        }
    }

    /// A hit with a country, OS, browser or device class writes 25 fields: the 21 of links and campaigns, then those
    /// four; one without them keeps the earlier forms.
    @Test func spoolLinesCarryDimensions() throws {
        var hit = Hit.sample(
            workspace: UUID(), host: "h.example", path: "/d", time: Date(timeIntervalSince1970: 1_764_400_000.5), visitor: "ff")
        let plain = Self.line(hit)
        hit.country = "DE"
        hit.os = "iOS"
        hit.browser = "Mobile\tSafari"
        hit.device = .mobile
        let line = Self.line(hit)
        #expect(line.hasPrefix(plain))
        #expect(line.hasSuffix("\tff\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\t\\N\tDE\tiOS\tMobile\\tSafari\tmobile"))
        let decoded = try #require(Hit(spoolLine: line))
        #expect((decoded.country, decoded.os, decoded.browser, decoded.device) == ("DE", "iOS", "Mobile\tSafari", .mobile))
        #expect(decoded.linkID == nil && decoded.campaign == nil && decoded.served == nil)
        hit.country = nil
        hit.os = nil
        hit.browser = nil
        #expect(Hit(spoolLine: Self.line(hit))?.device == .mobile)
        #expect(Hit(spoolLine: Self.line(hit))?.country == nil)
        #expect(Hit(spoolLine: Self.line(hit).replacingOccurrences(of: "\tmobile", with: "\tphablet")[...]) == nil)
    }

    /// A spool segment of the previous version (a 21-field line of a link's hit, and the 14-field line of a hit
    /// without link, campaign or served) is replayed beside this version's lines with countries, OS, browsers and
    /// devices: the old hits get NULL dimensions, the new ones theirs.
    @Test func spoolOfThePreviousVersionIsReplayedBesideDimensions() throws {
        let workspace = UUID().uuidString.lowercased(), link = UUID().uuidString.lowercased()
        let micros = Int64(Date().timeIntervalSince1970) * 1_000_000
        var lines = [
            "\(micros)\t\(workspace)\th.example\t/v21\t\\N\topen_app\t\\N\t\\N\t\\N\tclick\tandroid\tf\t\\N\tv1\tlanding\t\(link)\t"
                + "news\t\\N\tspring\t\\N\t\\N",
            "\(micros)\t\(workspace)\th.example\t/v14\t\\N\tno_match\t\\N\t\\N\t\\N\tresolve\tother\tf\t\\N\tv2",
        ]
        var hit = Hit.sample(workspace: UUID(uuidString: workspace), host: "h.example", path: "/v25")
        (hit.country, hit.os, hit.browser, hit.device) = ("US", "Android", "Chrome Mobile", .mobile)
        lines.append(String(Self.line(hit)))
        try Self.replayed(lines) { harness in
            let rows = try harness.pool.withConnection { connection in
                try connection.query("SELECT path, link_id::text, utm_source, country, os, browser, device FROM hits ORDER BY id")
                    .map { try $0.decode((String, String?, String?, String?, String?, String?, String?).self) }
            }
            #expect(rows.map(\.0) == ["/v21", "/v14", "/v25"])
            #expect(rows.map(\.1) == [link, nil, nil])
            #expect(rows.map(\.2) == ["news", nil, nil])
            #expect(rows.map(\.3) == [nil, nil, "US"])
            #expect(rows.map(\.4) == [nil, nil, "Android"])
            #expect(rows.map(\.5) == [nil, nil, "Chrome Mobile"])
            #expect(rows.map(\.6) == [nil, nil, "mobile"])
        }
    }

    /// Writes `lines` as a spool segment, starts a writer on it and waits until it has written them all; then `check`.
    static func replayed(_ lines: [String], _ check: (HitHarness) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-spool-replay-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("segment-000000000001.hits"))
        try HitHarness.with(configuration: HitsConfiguration(spoolDirectory: directory)) { harness in
            #expect(harness.batcher.counters.spooled == lines.count)
            harness.batcher.start()
            #expect(eventually { harness.batcher.counters.written == lines.count })
            try check(harness)
        }
    }

    static func line(_ hit: Hit) -> Substring {
        var bytes: [UInt8] = []
        hit.appendSpoolLine(to: &bytes)
        return Substring(String(decoding: bytes, as: UTF8.self))
    }
}
