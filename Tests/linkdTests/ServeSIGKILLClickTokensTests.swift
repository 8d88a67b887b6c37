import Foundation
import Glibc
import Postgres
import Testing
import TestSupport

/// `linkd serve` killed with SIGKILL right after sending Android landing pages: every click token on a page it sent
/// is claimable by the next process, once (docs/LANDING.md, "Deferred deep links": a token is journaled before its
/// page is sent, and the tokens are stored a flush interval later).
@Suite("linkd serve: SIGKILL after handing out click tokens")
struct ServeSIGKILLClickTokensTests {
    static let android =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"

    @Test func everyTokenSentIsClaimedOnceAfterAKill() throws {
        let linkd = try ServedLinkd()
        defer { linkd.close() }
        let headers = [("Authorization", "Bearer \(linkd.key)"), ("Content-Type", "application/json")]
        let app = try HTTPTestClient.request(
            port: linkd.port, method: "POST", path: "/v1/apps", headers: headers,
            body: Array(
                #"{"platform":"android","name":"Widgets","packageName":"com.example.widgets","sha256CertFingerprints":[{"value":"14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5","label":"Play App Signing"}]}"#
                    .utf8))
        #expect(app.status == 201, "\(app.text)")
        let appID = try #require(app.text.firstMatch(of: /"id":"([0-9a-f-]{36})"/)?.1)
        let rules = try HTTPTestClient.request(
            port: linkd.port, method: "PUT", path: "/v1/domains/\(ServedLinkd.host)/rules", headers: headers,
            body: Array(#"{"rules":[{"apps":["\#(appID)"],"path":"/w/*"}]}"#.utf8))
        #expect(rules.status == 200, "\(rules.text)")

        // Pages as fast as one connection takes them, then the kill: the last tokens' rows are in no database yet
        // (the writer stores them every 200 ms).
        let connection = try HTTPTestClient(port: linkd.port, timeout: 10)
        var tokens: [String] = []
        for index in 0..<40 {
            let page = try connection.request("GET", "/w/\(index)", headers: [("Host", ServedLinkd.host), ("User-Agent", Self.android)])
            #expect(page.status == 200)
            tokens.append(String(try #require(page.text.firstMatch(of: /referrer=linkd_token%3D([0-9a-f]{32})/)?.1)))
        }
        linkd.process.signal(SIGKILL)
        #expect(try linkd.process.wait(timeout: 60) == 128 + SIGKILL)
        let storedAtKill = try Connection(linkd.database.parameters).query("SELECT count(*)::int8 FROM click_tokens").first!.decode(
            0, as: Int.self)

        try linkd.restart()
        func claim(_ token: String) throws -> Int {
            try HTTPTestClient.request(
                port: linkd.port, method: "POST", path: "/v1/deferred/claim", headers: [("Content-Type", "application/json")],
                body: Array(#"{"token":"\#(token)"}"#.utf8)
            ).status
        }
        for token in tokens { #expect(try claim(token) == 200, "a token whose page was sent") }
        for token in tokens { #expect(try claim(token) == 410, "a token answers once") }
        // Killed and started again: nothing the journal held comes back claimable.
        linkd.process.signal(SIGKILL)
        _ = try linkd.process.wait(timeout: 60)
        try linkd.restart()
        for token in tokens { #expect(try claim(token) == 410, "a token answers once, across restarts") }
        print("SIGKILL click tokens: \(tokens.count) sent, \(storedAtKill) stored at the kill, all claimed once after the restart")
    }
}
