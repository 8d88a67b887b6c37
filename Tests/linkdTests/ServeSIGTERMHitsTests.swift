import Foundation
import Glibc
import Testing
import TestSupport

/// `linkd serve` under a load of clicks gets SIGTERM: every click that was answered (so its hit was
/// accepted) is in the database when the process has exited, and a restarted process finds nothing left over.
@Suite("linkd serve: SIGTERM during a load of hits")
struct ServeSIGTERMHitsTests {
    @Test func everyAnsweredClickIsWrittenBeforeExit() throws {
        let linkd = try ServedLinkd()
        defer { linkd.close() }
        let load = ClickLoad(port: linkd.port)
        load.answered.add(linkd.probesAnswered, ordering: .relaxed) // the probe clicks that showed the domain serving
        try waitUntil("a load of clicks answered, the hits of some not yet written") {
            try load.answered.load(ordering: .relaxed) > 1_000 && (linkd.metric("linkd_hits_not_durable") ?? 0) > 0
        }
        linkd.process.signal(SIGTERM)
        let status = try linkd.process.wait(timeout: 60)
        load.waitForEnd()
        #expect(status == 0)
        let text = linkd.process.standardError
        #expect(text.contains("hit writer stopped"))
        #expect(!text.contains("hits lost"))

        let stored = try linkd.storedHits()
        let acknowledged = load.answered.load(ordering: .relaxed)
        #expect(acknowledged > 100)
        // Every answered click is stored; at most one in-flight click per client was accepted without its answer arriving.
        #expect(stored >= acknowledged)
        #expect(stored <= acknowledged + load.clients)
        #expect(linkd.spoolSegments.isEmpty)
        print("SIGTERM figures: \(acknowledged) clicks answered, \(stored) hits stored, \(max(0, acknowledged - stored)) lost")

        // Restarted on the same database and spool: nothing to replay, nothing stored twice, serving again.
        try linkd.restart()
        #expect(try linkd.metric("linkd_hits_spooled") == 0)
        try expectClickAnswers(linkd)
        linkd.process.signal(SIGTERM)
        #expect(try linkd.process.wait(timeout: 60) == 0)
        #expect(try linkd.storedHits() == stored + 1)
    }
}

/// One click on the served domain answers 302.
func expectClickAnswers(_ linkd: ServedLinkd) throws {
    let response = try HTTPTestClient.request(
        port: linkd.port, method: "GET", path: "/after-restart", headers: [("Host", ServedLinkd.host)])
    guard response.status == 302 else { throw TestFailure("a click after the restart: \(response.status) \(response.text)") }
}
