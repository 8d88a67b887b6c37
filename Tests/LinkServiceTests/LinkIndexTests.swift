import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Every stored link held compactly in memory (`LinkIndex`, docs/LINKS.md, "Serving links"): what it answers is
/// what the database answers, byte for byte, and a change on one node is served so by the other.
@Suite("Stored links held in memory")
struct LinkIndexTests {
    private static func bulk(_ service: TestService, _ fixture: Fixture, _ items: [String]) throws -> JSONValue {
        try Fixture.expect(
            200,
            service.request(
                "POST", "/v1/links/bulk?acknowledgeMoves=true", key: fixture.key, body: items.joined(separator: "\n"),
                headers: [("Content-Type", "application/x-ndjson")])
        ).json
    }

    private static func resolve(_ service: TestService, _ fixture: Fixture, _ url: String, platform: String = "ios") throws -> TestResponse
    {
        let encoded = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return try service.request("GET", "/v1/resolve?url=\(encoded)&platform=\(platform)", key: fixture.key)
    }

    /// Waits until `service`'s index has read everything and holds `count` links.
    private static func held(_ service: TestService, _ count: Int) -> Bool {
        let index = service.application.linkIndex
        return eventually { index.isCurrent && index.held.links == count }
    }

    /// `text` with its click tokens (runs of 16 hex digits or more) masked.
    private static func masked(_ text: String) -> String {
        text.replacingOccurrences(of: "[0-9a-f]{16,}", with: "<token>", options: .regularExpression)
    }

    @Test func whatTheIndexAnswersIsWhatTheDatabaseAnswersByteForByte() throws {
        try TestService.with { first in
            let fixture = try Fixture(first)
            let pages = "pages.example.com"
            try Fixture.expect(
                201,
                first.request(
                    "POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"\#(pages)","webFallbackUrl":"https://www.example.com"}"#))
            let app = #""domain":"\#(fixture.host)","app":"\#(fixture.iosApp)""#
            let created = try Self.bulk(
                first, fixture,
                [
                    #"{\#(app),"slug":"plain","destination":{"type":"widgetDetail","params":{"id":42}}}"#,
                    """
                    {\(app),"slug":"full/deep.path_~-","destination":{"type":"widgetDetail","params":{"id":7,"tab":"reviews"}},\
                    "campaign":{"source":"news","medium":"email","campaign":"spring","term":"t","content":"c"},\
                    "data":{"n":1E+2,"big":12345678901234567890123,"s":"é \\u2028 \\"q\\" <x>","nested":{"a":[1,true,null,-0.5e-3]}},\
                    "name":"Spring · sale 春","fallbacks":{"ios":"https://www.example.com/ios","ipad":"https://www.example.com/ipad",\
                    "android":"https://www.example.com/android","desktop":"https://www.example.com/desktop"},\
                    "preview":{"title":"T <b>&","description":"D & \\"more\\"","imageUrl":"https://www.example.com/i.png"},\
                    "skipStore":true,"expiresAt":"2099-01-01T00:00:00.123Z"}
                    """,
                    #"{\#(app),"slug":"expired","destination":{"type":"widgetDetail","params":{"id":1}},"expiresAt":"2020-01-01T00:00:00Z","fallbacks":{"ios":"https://www.example.com/gone"}}"#,
                    #"{\#(app),"slug":"limited","destination":{"type":"widgetDetail","params":{"id":2}},"maxClicks":5}"#,
                    #"{\#(app),"slug":"android","destination":{"type":"widgetDetail","params":{"id":3}},"fallbacks":{"android":"https://www.example.com/a"},"preview":{"title":"A"}}"#,
                    #"{"domain":"\#(pages)","slug":"page","url":"https://www.example.com/page?x=1","fallbacks":{"ios":"https://m.example.com/"}}"#,
                    #"{"domain":"\#(pages)","slug":"page2","url":"https://www.example.com/p","campaign":{"source":"s"},"preview":{"title":"P"},"name":"P"}"#,
                ])
            #expect(created["created"] == .number("7"), "\(created)")
            // (Each domain was changed whole: both are read again.)
            #expect(Self.held(first, 7))

            let second = try TestService(parameters: first.database!.parameters) { $0.linkMemory = 0 }
            defer { second.close() }
            let domain = try #require(first.application.catalog.entry(exactly: fixture.host)?.domainID)
            guard case .found? = Optional(first.application.linkIndex.lookup("plain", domain: domain)) else {
                Issue.record("the index does not answer the link")
                return
            }
            if case .unknown = first.application.linkIndex.lookup("limited", domain: domain) {
            } else {
                Issue.record("a link with a click limit is read from the database")
            }

            let asked = [
                (fixture.host, "plain"), (fixture.host, "full/deep.path_~-"), (fixture.host, "expired"), (fixture.host, "limited"),
                (fixture.host, "android"), (fixture.host, "nothing"), (fixture.host, "plain/x"), (pages, "page"), (pages, "page2"),
                (pages, "nothing"),
            ]
            for (host, slug) in asked {
                for query in ["", "?utm_source=sms&x=1"] {
                    for platform in ["ios", "android"] {
                        let url = "https://\(host)/\(slug)\(query)"
                        let held = try Self.resolve(first, fixture, url, platform: platform)
                        let read = try Self.resolve(second, fixture, url, platform: platform)
                        #expect(held.status == read.status)
                        #expect(held.text == read.text, "\(url) \(platform)")
                    }
                    for agent in [ClickTests.iPhone, ClickTests.pixel, ClickTests.desktop] {
                        let headers = [("Host", host), ("User-Agent", agent)]
                        let held = try first.request("GET", "/\(slug)\(query)", headers: headers)
                        let read = try second.request("GET", "/\(slug)\(query)", headers: headers)
                        #expect(held.status == read.status, "\(host)/\(slug) \(agent)")
                        #expect(held.headers["Location"] == read.headers["Location"], "\(host)/\(slug) \(agent)")
                        // (Android's landing page carries a click token of its own per click.)
                        #expect(Self.masked(held.text) == Self.masked(read.text), "\(host)/\(slug) \(agent)")
                    }
                }
            }
        }
    }

    /// Issue 29's coherence, for links the other node holds in its index: changed, renamed, deleted and created in
    /// bulk on one node, each is served so by the other.
    @Test func aLinkHeldInMemoryAndChangedOnOneNodeIsServedSoByTheOther() throws {
        try TestService.with { first in
            let fixture = try Fixture(first)
            let second = try TestService(parameters: first.database!.parameters)
            defer { second.close() }
            let items = ["a", "b", "c"].enumerated().map { index, slug in
                #"{"domain":"\#(fixture.host)","slug":"\#(slug)","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":\#(index + 1)}}}"#
            }
            let made = try Self.bulk(first, fixture, items)
            let results = try #require(made["results"]?.arrayValue, "\(made)")
            let ids = try results.map { try #require($0["id"]?.stringValue) }
            #expect(Self.held(second, 3))
            func link(_ slug: String) throws -> JSONValue? {
                try Fixture.expect(200, Self.resolve(second, fixture, "https://\(fixture.host)/\(slug)")).json["link"]
            }
            func id(_ slug: String) throws -> JSONValue? {
                try Fixture.expect(200, Self.resolve(second, fixture, "https://\(fixture.host)/\(slug)")).json["destination"]?["params"]?[
                    "id"]
            }
            // (The other node's catalog learns of the domain's first links to an app on its own notification.)
            #expect(try eventually { try id("b") == .number("2") })
            #expect(try id("c") == .number("3"))

            try Fixture.expect(
                200,
                first.request(
                    "PATCH", "/v1/links/\(ids[1])", key: fixture.key, json: #"{"destination":{"type":"widgetDetail","params":{"id":9}}}"#))
            let start = Date()
            #expect(try eventually { try id("b") == .number("9") })
            #expect(Date().timeIntervalSince(start) < 1.0)

            try Fixture.expect(200, first.request("PATCH", "/v1/links/\(ids[2])", key: fixture.key, json: #"{"slug":"c2"}"#))
            #expect(try eventually { try link("c") == nil })
            #expect(try link("c2")?["id"]?.stringValue == ids[2])

            try Fixture.expect(204, first.request("DELETE", "/v1/links/\(ids[0])", key: fixture.key))
            #expect(try eventually { try link("a") == nil })

            // Links created in bulk: the domain is read again, and its new links are served.
            #expect(try link("d") == nil)
            _ = try Self.bulk(
                first, fixture,
                [
                    #"{"domain":"\#(fixture.host)","slug":"d","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":4}}}"#
                ])
            #expect(try eventually { try id("d") == .number("4") })
            #expect(Self.held(second, 3), "b, c2 and d")
            #expect(try id("b") == .number("9"))
            #expect(try link("a") == nil)
        }
    }

    /// `--link-memory` bounds what is held: a domain whose links do not fit is not held, and its links are read from
    /// the database as before.
    @Test func aDomainBeyondTheBudgetIsReadFromTheDatabase() throws {
        try TestService.with(configure: { $0.linkMemory = 1 }) { service in
            let fixture = try Fixture(service)
            // About 2 MB of links (data of 4 KB each) on one domain: more than the 1 MiB allowed.
            let data = String(repeating: "x", count: 4_000)
            let items = (0..<500).map { index in
                #"{"domain":"\#(fixture.host)","slug":"s\#(index)","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":\#(index + 1)}},"data":{"x":"\#(data)"}}"#
            }
            let made = try Self.bulk(service, fixture, items)
            #expect(made["created"] == .number("500"), "\(String(describing: made).prefix(800))")
            #expect(Self.held(service, 0))
            let index = service.application.linkIndex
            #expect(index.held.bytes <= 1 << 20)
            let answer = try Fixture.expect(200, Self.resolve(service, fixture, "https://\(fixture.host)/s321")).json
            #expect(answer["destination"]?["params"]?["id"] == .number("322"))
        }
    }
}
