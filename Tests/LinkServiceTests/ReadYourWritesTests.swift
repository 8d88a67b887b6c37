import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// A write answers only once the node that made it serves it (issue 17: 14 of 20 resolves sent right after a
/// `PATCH` got the old answer, since the writing node too waited for its own `NOTIFY`); other nodes follow.
@Suite("Read your own writes")
struct ReadYourWritesTests {
    func resolve(_ service: TestService, _ fixture: Fixture, _ url: String) throws -> JSONValue {
        let response = try service.request(
            "GET", "/v1/resolve?url=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!, key: fixture.key)
        try Fixture.expect(200, response)
        return try response.json
    }

    /// Round `round`'s change: even rounds move the domain's web fallback (`PATCH`), odd rounds replace the
    /// rules (`PUT`) with one under `/r<round>/`. Returns the URL to resolve and whether an answer is the new one.
    func change(_ round: Int, _ fixture: Fixture) throws -> (url: String, isNew: (JSONValue) -> Bool) {
        let service = fixture.service
        if round.isMultiple(of: 2) {
            let fallback = "https://www.example.com/r\(round)"
            try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/domains/\(fixture.host)", key: fixture.key,
                    json: #"{"webFallbackUrl":"\#(fallback)","carryPathToFallback":false}"#))
            return ("https://\(fixture.host)/nothing/here", { $0["fallbacks"]?["web"] == .string(fallback) })
        }
        try Fixture.expect(
            200,
            service.request(
                "PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                json: """
                    {"rules":[{"apps":["\(fixture.iosApp)"],"path":"/r\(round)/{id}","destination":{"type":"widgetDetail"}}]}
                    """))
        return ("https://\(fixture.host)/r\(round)/5", { $0["outcome"] == .string("open_app") })
    }

    @Test func everyResolveRightAfterAWriteOnTheSameNodeSeesIt() throws {
        try TestService.with { first in
            let fixture = try Fixture(first)
            let second = try TestService(parameters: first.database!.parameters)
            defer { second.close() }
            var stale: [Int] = []
            var last: (url: String, isNew: (JSONValue) -> Bool)?
            for round in 0..<20 {
                let (url, isNew) = try change(round, fixture)
                if !isNew(try resolve(first, fixture, url)) { stale.append(round) }
                last = (url, isNew)
            }
            #expect(stale.isEmpty, "rounds answered with the state before their own write: \(stale)")
            // The other node follows through NOTIFY.
            let (url, isNew) = try #require(last)
            #expect(try eventually { isNew(try resolve(second, fixture, url)) }, "the second node did not catch up")
            #expect(try resolve(first, fixture, url) == resolve(second, fixture, url))
        }
    }

    @Test func anAppChangeIsServedAtOnceToo() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let url = "https://\(fixture.host)/widget/7"
            for round in 0..<5 {
                let storeID = "\(1_000_000_000 + round)"
                try Fixture.expect(
                    200, service.request("PATCH", "/v1/apps/\(fixture.iosApp)", key: fixture.key, json: #"{"appStoreId":"\#(storeID)"}"#))
                let answer = try resolve(service, fixture, url)
                #expect(
                    answer["fallbacks"]?["appStore"] == .string("https://apps.apple.com/app/id\(storeID)"),
                    "round \(round): \(answer.serialized)")
            }
        }
    }
}
