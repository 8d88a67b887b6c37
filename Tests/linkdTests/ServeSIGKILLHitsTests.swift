import Foundation
import Glibc
import Testing
import TestSupport

/// `linkd serve` under a load of clicks is killed with SIGKILL: the hits accepted but not yet committed are
/// lost, and no more than `/metrics` said could be (`linkd_hits_not_durable` at the last scrape, plus what
/// arrived after it). Nothing is stored twice, and a restarted process serves again. docs/HITS.md states the
/// bound (about one flush interval of hits, `linkd_hits_flush_interval_seconds`, while the database is up) and
/// why there is no journal to close it.
@Suite("linkd serve: SIGKILL during a load of hits")
struct ServeSIGKILLHitsTests {
    @Test func aKillLosesOnlyTheHitsMetricsReportNotDurable() throws {
        let linkd = try ServedLinkd()
        defer { linkd.close() }
        let interval = try #require(try linkd.metric("linkd_hits_flush_interval_seconds"))
        #expect(interval == 0.2)
        let load = ClickLoad(port: linkd.port)
        load.answered.add(linkd.probesAnswered, ordering: .relaxed)
        var samples: [Int] = []
        for _ in 0..<15 {
            usleep(150_000) // the pace of the samples over the load, what is measured: not a wait
            samples.append(Int(try #require(try linkd.metric("linkd_hits_not_durable"))))
        }
        let answeredBeforeScrape = load.answered.load(ordering: .relaxed)
        let notDurable = Int(try #require(try linkd.metric("linkd_hits_not_durable")))
        linkd.process.signal(SIGKILL)
        let status = try linkd.process.wait(timeout: 60)
        load.waitForEnd()
        let elapsed = Date().timeIntervalSince(load.started)
        #expect(status == 128 + SIGKILL)

        let stored = try linkd.storedHits()
        let acknowledged = load.answered.load(ordering: .relaxed)
        let lost = acknowledged - stored
        #expect(acknowledged > 100)
        #expect(stored <= acknowledged + load.clients, "no hit is stored that was not accepted, none twice")
        // A lost hit was not durable at the last scrape, or arrived after it.
        let bound = notDurable + (acknowledged - answeredBeforeScrape)
        #expect(
            lost <= bound,
            "lost \(lost); not durable at the last scrape \(notDurable), answered after it \(acknowledged - answeredBeforeScrape)")
        print(
            "SIGKILL figures: \(acknowledged) clicks answered in \(String(format: "%.2f", elapsed)) s (\(Int(Double(acknowledged) / elapsed))/s), "
                + "\(stored) stored, \(max(0, lost)) lost (\(String(format: "%.2f", 100 * Double(max(0, lost)) / Double(acknowledged)))%, "
                + "\(String(format: "%.2f", Double(max(0, lost)) * elapsed / Double(acknowledged))) s of the load), bound \(bound); "
                + "linkd_hits_not_durable every 150 ms: \(samples), at the kill: \(notDurable)")

        // The next process starts on the same database and spool and serves.
        try linkd.restart()
        try expectClickAnswers(linkd)
        linkd.process.signal(SIGTERM)
        #expect(try linkd.process.wait(timeout: 60) == 0)
        #expect(try linkd.storedHits() == stored + 1)
    }
}
