import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// A link whose `url` or fallback leads back to it, itself or through other links and link domains, is refused with a
/// 422 at that member, through every door (`LinkLoops`, docs/LINKS.md).
@Suite("Links that redirect to themselves")
struct LinkLoopTests {
    /// The pointers of a problem answer.
    static func pointers(_ response: TestResponse) throws -> [String] {
        try response.json["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
    }

    static func create(_ fixture: Fixture, _ body: String, key: String? = nil) throws -> TestResponse {
        try fixture.service.request("POST", "/v1/links?acknowledgeMoves=true", key: key ?? fixture.key, json: body)
    }

    static func csv(_ fixture: Fixture, _ query: String, _ file: String) throws -> JSONValue {
        try Fixture.expect(
            200,
            HTTPTestClient.request(
                port: fixture.service.port, method: "POST", path: "/v1/links/import?\(query)",
                headers: [("Authorization", "Bearer \(fixture.key)"), ("Content-Type", "text/csv")], body: Array(file.utf8), timeout: 60)
        ).json
    }

    @Test(arguments: [
        "https://links.example.com/u12", "https://LINKS.Example.COM./u12", "https://links.example.com:443/u12?utm_source=x#top",
        "https://links.example.com/%75%312", "https://links.example.com/a/../u12", "https://links.example.com/./u12",
    ])
    func createRefusesTheLinksOwnAddress(url: String) throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let refused = try Self.create(fixture, #"{"domain":"links.example.com","slug":"u12","url":"\#(url)"}"#)
            #expect(refused.status == 422, "\(url): \(refused.text)")
            #expect(try Self.pointers(refused) == ["/url"], "\(refused.text)")
            let fallback = try Self.create(
                fixture,
                """
                {"domain":"links.example.com","slug":"u12","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":1}},
                 "fallbacks":{"ios":"https://www.example.com/ios","desktop":"\(url)"}}
                """)
            #expect(fallback.status == 422, "\(url): \(fallback.text)")
            #expect(try Self.pointers(fallback) == ["/fallbacks/desktop"], "\(fallback.text)")
        }
    }

    @Test func createAcceptsOtherAddressesOnTheDomain() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            for (slug, url) in [
                ("u1", "https://links.example.com/u1/"), ("u2", "https://links.example.com/U2"),
                ("u3", "https://links.example.com:8443/u3"),
                ("u4", "https://links.example.com/u4x"), ("u5", "https://www.example.com/u5"),
            ] {
                let response = try Self.create(fixture, #"{"domain":"links.example.com","slug":"\#(slug)","url":"\#(url)"}"#)
                #expect(response.status == 201, "\(url): \(response.text)")
            }
        }
    }

    /// Through another stored link, on another domain of the workspace, another workspace's domain, or a domain's web
    /// fallback: the link closing the cycle is refused.
    @Test func createRefusesACycleThroughOtherLinksAndDomains() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"go.example.com"}"#))
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/domains", key: fixture.key,
                    json: """
                        {"hostname":"back.example.com","webFallbackUrl":"https://links.example.com","carryPathToFallback":true}
                        """))
            let other = try service.key(workspace: "other")
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: other, json: #"{"hostname":"theirs.example.com"}"#))
            try fixture.waitForCatalog { app in
                ["go.example.com", "back.example.com", "theirs.example.com"].allSatisfy { app.catalog.entry(exactly: $0) != nil }
            }

            // links.example.com/c → links.example.com/d (none yet: the domain's fallback, www.example.com) …
            try Fixture.expect(201, Self.create(fixture, #"{"domain":"links.example.com","slug":"c","url":"https://links.example.com/d"}"#))
            // … then d → c closes the cycle.
            let direct = try Self.create(fixture, #"{"domain":"links.example.com","slug":"d","url":"https://links.example.com/c"}"#)
            #expect(try direct.status == 422 && Self.pointers(direct) == ["/url"], "\(direct.text)")

            // Through another domain of the workspace, by a fallback.
            try Fixture.expect(
                201,
                Self.create(
                    fixture,
                    #"{"domain":"go.example.com","slug":"x","url":"https://www.example.com/x","fallbacks":{"ios":"https://links.example.com/y"}}"#
                ))
            let viaDomain = try Self.create(fixture, #"{"domain":"links.example.com","slug":"y","url":"https://go.example.com/x"}"#)
            #expect(try viaDomain.status == 422 && Self.pointers(viaDomain) == ["/url"], "\(viaDomain.text)")

            // Through another workspace's link.
            try Fixture.expect(
                201, Self.create(fixture, #"{"domain":"theirs.example.com","slug":"t","url":"https://links.example.com/w"}"#, key: other))
            let viaOther = try Self.create(fixture, #"{"domain":"links.example.com","slug":"w","url":"https://theirs.example.com/t"}"#)
            #expect(try viaOther.status == 422 && Self.pointers(viaOther) == ["/url"], "\(viaOther.text)")

            // Through a domain whose web fallback carries the path back to links.example.com.
            let viaFallback = try Self.create(fixture, #"{"domain":"links.example.com","slug":"z","url":"https://back.example.com/z"}"#)
            #expect(try viaFallback.status == 422 && Self.pointers(viaFallback) == ["/url"], "\(viaFallback.text)")

            // Through an app link without a desktop fallback: a desktop goes on to its domain's web fallback.
            try Fixture.expect(
                201,
                Self.create(
                    fixture,
                    """
                    {"domain":"back.example.com","slug":"g","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":1}}}
                    """))
            let viaAppLink = try Self.create(fixture, #"{"domain":"links.example.com","slug":"g","url":"https://back.example.com/g"}"#)
            #expect(try viaAppLink.status == 422 && Self.pointers(viaAppLink) == ["/url"], "\(viaAppLink.text)")

            // A chain that ends elsewhere is fine.
            try Fixture.expect(201, Self.create(fixture, #"{"domain":"links.example.com","slug":"e","url":"https://links.example.com/c"}"#))
        }
    }

    @Test func patchRefusesALoop() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            func patch(_ link: JSONValue, _ body: String) throws -> TestResponse {
                let etag = try Fixture.expect(200, service.request("GET", "/v1/links/\(link["id"]!.stringValue!)", key: fixture.key))
                    .headers["ETag"]!
                return try service.request(
                    "PATCH", "/v1/links/\(link["id"]!.stringValue!)", key: fixture.key, json: body, headers: [("If-Match", etag)])
            }
            let p = try Fixture.expect(
                201, Self.create(fixture, #"{"domain":"links.example.com","slug":"p","url":"https://www.example.com/p"}"#)
            ).json
            let toSelf = try patch(p, #"{"url":"https://links.example.com/p"}"#)
            #expect(try toSelf.status == 422 && Self.pointers(toSelf) == ["/url"], "\(toSelf.text)")
            let fallback = try patch(p, #"{"fallbacks":{"android":"https://links.example.com/p?x=1"}}"#)
            #expect(try fallback.status == 422 && Self.pointers(fallback) == ["/fallbacks/android"], "\(fallback.text)")

            // m → links.example.com/m2 (nothing there yet); n → m; n moved to m2 closes the cycle.
            try Fixture.expect(
                201, Self.create(fixture, #"{"domain":"links.example.com","slug":"m","url":"https://links.example.com/m2"}"#))
            let n = try Fixture.expect(
                201, Self.create(fixture, #"{"domain":"links.example.com","slug":"n","url":"https://links.example.com/m"}"#)
            ).json
            let moved = try patch(n, #"{"slug":"m2"}"#)
            #expect(try moved.status == 422 && Self.pointers(moved) == ["/url"], "\(moved.text)")
            // The link's own old address is no longer it once it moves: n → m, moved to n2, is fine.
            try Fixture.expect(200, patch(n, #"{"slug":"n2","url":"https://links.example.com/n"}"#))
            #expect(try Self.pointers(patch(p, #"{"url":"https://www.example.com/p2"}"#)).isEmpty)
        }
    }

    @Test func bulkRefusesEachLoopingItem() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let answer = try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/links/bulk?acknowledgeMoves=true", key: fixture.key,
                    json: """
                        [{"domain":"links.example.com","slug":"u12","url":"https://links.example.com/u12"},
                         {"domain":"links.example.com","slug":"a","url":"https://links.example.com/b"},
                         {"domain":"links.example.com","slug":"b","url":"https://www.example.com/b","fallbacks":{"desktop":"https://links.example.com/a"}},
                         {"domain":"links.example.com","slug":"ok","url":"https://links.example.com/a"}]
                        """)
            ).json
            #expect(answer["created"] == .number("2"), "\(answer)")
            let results = try #require(answer["results"]?.arrayValue)
            func pointers(_ result: JSONValue) -> [String] {
                result["error"]?["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
            }
            #expect(results.map(pointers) == [["/0/url"], [], ["/2/fallbacks/desktop"], []], "\(answer)")
        }
    }

    @Test func csvImportRefusesLoopingRows() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let report = try Self.csv(
                fixture, "format=csv&domain=links.example.com",
                """
                slug,url,desktopFallback
                cs1,https://links.example.com/cs1,
                cs2,https://www.example.com/cs2,https://links.example.com/cs2
                cs3,https://www.example.com/cs3,
                """)
            #expect(report["created"] == .number("1"), "\(report)")
            let columns = report["results"]?.arrayValue?.map { $0["problems"]?.arrayValue?.compactMap { $0["column"]?.stringValue } ?? [] }
            #expect(columns == [["url"], ["desktopFallback"], []], "\(report)")
        }
    }

    @Test func firebaseImportRefusesLoopingRows() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let report = try Self.csv(
                fixture, "format=firebase",
                """
                Short link,Deep link (link),Desktop fallback link (ofl)
                https://links.example.com/fb1,https://links.example.com/fb1,
                https://links.example.com/fb2,https://www.example.com/fb2,https://links.example.com/fb2
                https://links.example.com/fb3,https://www.example.com/fb3,
                """)
            #expect(report["created"] == .number("1"), "\(report)")
            let columns = report["results"]?.arrayValue?.map { $0["problems"]?.arrayValue?.compactMap { $0["column"]?.stringValue } ?? [] }
            #expect(columns == [["link"], ["ofl"], []], "\(report)")
        }
    }

    @Test func pathsAreComparedAsTheServerReadsThem() {
        #expect(LinkLoops.normalisedPath("") == "/")
        #expect(LinkLoops.normalisedPath("/%75%31%32") == "/u12")
        #expect(LinkLoops.normalisedPath("/a/b/../../u12") == "/u12")
        #expect(LinkLoops.normalisedPath("/u12/.") == "/u12/")
        #expect(LinkLoops.normalisedPath("/%2E%2E/u12") == "/u12")
        #expect(LinkLoops.normalisedPath("/u%2F12") == "/u%2F12") // an encoded slash stays: no slug holds it
    }
}
