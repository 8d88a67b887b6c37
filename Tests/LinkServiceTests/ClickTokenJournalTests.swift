import Foundation
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// A click token handed out is claimable exactly once whatever happens between its page and the claim: its row is in
/// the journal before the page is sent (docs/LANDING.md, "Deferred deep links"), so a stop while the database is
/// away, a restart and the database's own restart lose none, and none is claimable twice.
@Suite("Click tokens: the journal", .serialized)
struct ClickTokenJournalTests {
    func claim(_ service: TestService, _ token: String) throws -> Int {
        try service.request("POST", "/v1/deferred/claim", json: #"{"token":"\#(token)"}"#, headers: [("User-Agent", "okhttp/4.12.0")])
            .status
    }

    func storedTokens(_ parameters: ConnectionParameters) throws -> Int {
        try Connection(parameters).query("SELECT count(*)::int8 FROM click_tokens").first!.decode(0, as: Int.self)
    }

    /// Tokens issued before and while the database is down, the service stopped while it still is (so they cannot be
    /// stored), the database started again and a new service started on the same spool: every token is claimed once,
    /// and a second claim of each is refused, before and after yet another restart.
    @Test(.timeLimit(.minutes(3)))
    func tokensOutliveADatabaseRestartAndAStopAndAreClaimedOnce() throws {
        let database = try OutageCluster()
        defer { database.close() }
        let spool = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-tokens-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: spool) }
        let configure: (inout ServiceConfiguration) -> Void = { $0.hits.spoolDirectory = spool }
        var tokens: [String] = []
        do {
            let service = try TestService(parameters: database.parameters, configure: configure)
            defer { service.close() }
            _ = try LandingTests.fixture(service)
            for index in 0..<5 { tokens.append(try DeferredClaimTests().androidToken(service, "/widget/\(index + 1)?tab=info")) }
            database.cluster.stop()
            // Clicks answer from memory while the database is away; their tokens wait in the journal.
            for index in 5..<10 { tokens.append(try DeferredClaimTests().androidToken(service, "/widget/\(index + 1)?tab=info")) }
        }
        #expect(Set(tokens).count == 10)
        try database.cluster.start()
        #expect(try storedTokens(database.parameters) < 10, "the tokens of the clicks while the database was down were not stored")
        for round in 0..<2 {
            let service = try TestService(parameters: database.parameters, configure: configure)
            defer { service.close() }
            for token in tokens {
                #expect(try claim(service, token) == (round == 0 ? 200 : 410), "round \(round)")
                #expect(try claim(service, token) == 410, "round \(round)")
            }
        }
        #expect(try storedTokens(database.parameters) == 10)
        let left = try FileManager.default.contentsOfDirectory(atPath: spool.appendingPathComponent("click-tokens").path)
        #expect(
            left.allSatisfy {
                FileManager.default.contents(atPath: spool.appendingPathComponent("click-tokens/\($0)").path)?.isEmpty ?? true
            })
    }

    /// A row `issue` journals is one whole `COPY` line, which the next process reads back; a line cut short is not.
    @Test func aJournaledRowIsOneWholeLine() {
        let stem = ClickTokens.Stem(
            workspace: UUID(), domain: UUID(), url: "https://l.example/a\tb\\c", platform: "android",
            answer: Array(#"{"url":"https://l.example/a\tb"}"#.utf8))
        let row = ClickTokens.row(
            token: ClickTokens.generate(), stem: stem, country: nil, os: nil, createdMicros: 1_765_134_000_123_456,
            expiresMicros: 1_765_220_400_123_456)
        #expect(row.last == 10)
        let line = row.dropLast()
        #expect(ClickTokenJournal.isRow(line))
        #expect(!ClickTokenJournal.isRow(line.dropLast(3)))
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.contains("\t2025-12-07 19:00:00.123456+00\t2025-12-08 19:00:00.123456+00"))
        #expect(text.contains("https://l.example/a\\tb\\\\c"))
    }
}
