import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `GET /v1/links` for many links (issue 46, item 5): `sort` with a stable cursor, the `total`, the campaign found
/// by a part of its name, the taps every link counts, and the export in the list's order.
@Suite("Link list order")
struct LinkListOrderTests {
    private static func items(_ response: TestResponse, _ member: String = "slug") throws -> [String] {
        try response.json["items"]?.arrayValue?.compactMap { $0[member]?.stringValue } ?? []
    }

    /// Every slug of the list `query` asks, following `next` two at a time.
    private static func all(_ fixture: Fixture, _ query: String) throws -> [String] {
        var path: String? = "/v1/links?limit=2&" + query
        var slugs: [String] = []
        while let next = path {
            let page = try Fixture.expect(200, fixture.service.request("GET", next, key: fixture.key))
            slugs += try items(page)
            path = try page.json["next"]?.stringValue
        }
        return slugs
    }

    @Test func sortsCountsAndFindsCampaignsByAPart() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            for (slug, campaign) in [("m", "Spring24"), ("b", "mail-spring"), ("Z", "winter"), ("a", nil), ("k", "SPRING")] {
                let members = campaign.map { #","campaign":{"campaign":"\#($0)"}"# } ?? ""
                try Fixture.expect(
                    201,
                    service.request(
                        "POST", "/v1/links", key: fixture.key,
                        json: #"{"domain":"\#(fixture.host)","slug":"\#(slug)","url":"https://www.example.com"\#(members)}"#))
            }
            #expect(try Self.all(fixture, "") == ["m", "b", "Z", "a", "k"])
            #expect(try Self.all(fixture, "sort=created") == ["m", "b", "Z", "a", "k"])
            #expect(try Self.all(fixture, "sort=-created") == ["k", "a", "Z", "b", "m"])
            #expect(try Self.all(fixture, "sort=slug") == ["Z", "a", "b", "k", "m"], "byte order: capitals first")
            #expect(try Self.all(fixture, "sort=-slug") == ["m", "k", "b", "a", "Z"])

            // The campaign filter finds a part of the name, whatever its case.
            #expect(try Self.all(fixture, "campaign=spring") == ["m", "b", "k"])
            #expect(try Self.all(fixture, "campaign=SPRING&sort=slug") == ["b", "k", "m"])
            #expect(try Self.all(fixture, "campaign=%25") == [], "% is taken literally")

            // The first page counts what the filters keep; the pages after it do not count again.
            let first = try Fixture.expect(200, service.request("GET", "/v1/links?limit=2&campaign=spring", key: fixture.key))
            #expect(try first.json["total"] == .number("3"))
            let second = try Fixture.expect(
                200, service.request("GET", try #require(try first.json["next"]?.stringValue), key: fixture.key))
            #expect(try second.json["total"] == nil)
            #expect(try Fixture.expect(200, service.request("GET", "/v1/links?tag=none", key: fixture.key)).json["total"] == .number("0"))

            // A cursor belongs to its order; an unknown order is refused.
            let bySlug = try Fixture.expect(200, service.request("GET", "/v1/links?limit=2&sort=slug", key: fixture.key))
            let cursor = try #require(try bySlug.json["next"]?.stringValue?.split(separator: "cursor=").last)
            for path in [
                "/v1/links?sort=created&cursor=\(cursor)", "/v1/links?sort=-slug&cursor=\(cursor)", "/v1/links?sort=name",
                "/v1/links?cursor=\(cursor)",
            ] {
                let refused = try service.request("GET", path, key: fixture.key)
                #expect(refused.status == 400, "\(path): \(refused.text)")
                #expect(refused.headers["Content-Type"] == "application/problem+json")
            }
            // A 200-character slug makes a cursor longer than a creation time's.
            let long = String(repeating: "s", count: 200)
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/links", key: fixture.key,
                    json: #"{"domain":"\#(fixture.host)","slug":"\#(long)","url":"https://www.example.com"}"#))
            #expect(try Self.all(fixture, "sort=-slug") == [long, "m", "k", "b", "a", "Z"])

            // The export follows the list's order and filters.
            let export = try Fixture.expect(200, service.request("GET", "/v1/links/export?sort=-slug&campaign=spring", key: fixture.key))
            let rows = export.text.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",") }
            #expect(rows.map { String($0[1]) } == ["m", "k", "b"], "\(export.text)")
        }
    }

    @Test func everyLinkCountsItsTapsAndSortsByThem() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, domainSettings: ClickTests.redirect)
            for slug in ["none", "once", "thrice"] {
                try Fixture.expect(
                    201,
                    service.request(
                        "POST", "/v1/links", key: fixture.key,
                        json: #"{"domain":"\#(fixture.host)","slug":"\#(slug)","url":"https://www.example.com/\#(slug)"}"#))
            }
            for (slug, taps) in [("once", 1), ("thrice", 3)] {
                for _ in 0..<taps {
                    let tap = try service.request("GET", "/\(slug)", headers: [("Host", fixture.host), ("User-Agent", ClickTests.iPhone)])
                    #expect(tap.status == 302)
                }
            }
            // A bot's fetch is no tap.
            _ = try service.request("GET", "/none", headers: [("Host", fixture.host), ("User-Agent", ClickTests.slack)])
            var order: [String] = []
            #expect(
                try eventually {
                    let page = try Fixture.expect(200, service.request("GET", "/v1/links?sort=-clicks", key: fixture.key))
                    order = try Self.items(page)
                    return try page.json["items"]?.arrayValue?.compactMap { $0["clicks"] } == [.number("3"), .number("1"), .number("0")]
                }, "\(order)")
            #expect(order == ["thrice", "once", "none"])
            #expect(try Self.all(fixture, "sort=clicks") == ["none", "once", "thrice"])
        }
    }
}
