import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// A link never changes unannounced what an app opens (docs/LINKS.md, "The link space"): the first link to an app
/// claims every path no rule decides, which moves URLs a rule keeps from the apps where a platform cannot keep them
/// (Android intent filters cannot exclude); such a write is refused with the moves unless acknowledged, through every
/// door; the preview's lint says what the link space moves; links to web pages never open an app.
@Suite("Links that move what apps open")
struct LinkSpaceMovesTests {
    private static func link(_ fixture: Fixture, slug: String, id: Int = 42) -> String {
        #"{"domain":"\#(fixture.host)","slug":"\#(slug)","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":\#(id)}}}"#
    }

    private static func web(_ fixture: Fixture, slug: String) -> String {
        #"{"domain":"\#(fixture.host)","slug":"\#(slug)","url":"https://www.example.com/\#(slug)"}"#
    }

    private static func resolve(_ fixture: Fixture, _ path: String, _ platform: String) throws -> JSONValue {
        let url = "https://\(fixture.host)\(path)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return try Fixture.expect(200, fixture.service.request("GET", "/v1/resolve?url=\(url)&platform=\(platform)", key: fixture.key)).json
    }

    private static func lint(_ fixture: Fixture) throws -> [JSONValue] {
        try Fixture.expect(200, fixture.service.request("POST", "/v1/domains/\(fixture.host)/preview", key: fixture.key, json: "{}"))
            .json["lint"]?.arrayValue ?? []
    }

    private static func versions(_ fixture: Fixture) throws -> [Int] {
        let items =
            try Fixture.expect(
                200,
                fixture.service.request(
                    "GET", "/v1/domains/\(fixture.host)/association/versions?limit=200",
                    key: fixture.key)
            ).json["items"]?.arrayValue ?? []
        return items.compactMap { item in if case .number(let n)? = item["n"] { Int(n) } else { nil } }
    }

    private static func links(_ fixture: Fixture) throws -> Int {
        try fixture.service.request("GET", "/v1/links", key: fixture.key).json["items"]?.arrayValue?.count ?? -1
    }

    /// The issue's scenario: two apps, `/private/*` excluded for both; the first link to an app would make Android open
    /// `/private/x`. Refused with the move named; acknowledged, the versions' diff shows the move and resolve agrees.
    @Test func theFirstLinkToAnAppIsRefusedWithTheMovesUnlessAcknowledged() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            #expect(try Self.lint(fixture).allSatisfy { $0["code"]?.stringValue != "linkSpaceMoves" })
            let before = try Self.versions(fixture)

            let refused = try service.request("POST", "/v1/links", key: fixture.key, json: Self.link(fixture, slug: "spring"))
            #expect(refused.status == 409, "\(refused.text)")
            let refusedJSON = try refused.json
            #expect(refusedJSON["type"]?.stringValue == "https://linkd.dev/problems/link-space-moves")
            let moves = refusedJSON["errors"]?.arrayValue ?? []
            let android = moves.compactMap { $0["detail"]?.stringValue }.filter { $0.contains("/private/") }
            #expect(android.count == 1, "\(refused.text)")
            #expect(
                android.first?.contains("the rule at position 0") == true
                    && android.first?.contains("Android intent filters cannot exclude") == true)
            #expect(android.first?.contains("Widgets (Android, com.example.widgets)") == true, "\(android)")
            #expect(moves.allSatisfy { $0["pointer"]?.stringValue == "/app" })
            // Nothing changed: no link, no version, the files as they were.
            #expect(try Self.links(fixture) == 0)
            #expect(try Self.versions(fixture) == before)
            #expect(try Self.resolve(fixture, "/private/x", "android")["outcome"]?.stringValue == "no_match")

            // A bad acknowledgement is a 400.
            #expect(
                try service.request("POST", "/v1/links?acknowledgeMoves=maybe", key: fixture.key, json: Self.link(fixture, slug: "spring"))
                    .status == 400)
            try fixture.createLink(Self.link(fixture, slug: "spring"))
            // Android opens /private/x now (its manifest claims every path); iOS keeps the exclusion.
            #expect(try Self.resolve(fixture, "/private/x", "android")["outcome"]?.stringValue == "open_app")
            #expect(try Self.resolve(fixture, "/private/x", "ios")["outcome"]?.stringValue == "excluded")
            let after = try Self.versions(fixture)
            let (from, to) = (try #require(before.max()), try #require(after.max()))
            #expect(to > from)
            let diff = try Fixture.expect(
                200,
                service.request(
                    "GET", "/v1/domains/\(fixture.host)/association/diff?from=\(from)&to=\(to)",
                    key: fixture.key)
            ).json
            let moved = diff["moved"]?.arrayValue ?? []
            let privateMove = moved.first { $0["url"]?.stringValue?.contains("/private/") == true }
            #expect(privateMove?["android"]?["from"]?["outcome"]?.stringValue == "no_match", "\(moved)")
            #expect(privateMove?["android"]?["to"]?["outcome"]?.stringValue == "open_app")

            // The lint says so now, at the exclusion, with the link space as the reason.
            let lint = try Self.lint(fixture)
            let finding = lint.first { $0["code"]?.stringValue == "linkSpaceMoves" && $0["pointer"]?.stringValue == "/rules/0" }
            #expect(finding?["message"]?.stringValue?.contains("link space") == true, "\(lint)")
            // Another link to the same app moves nothing more: no refusal.
            try Fixture.expect(201, service.request("POST", "/v1/links", key: fixture.key, json: Self.link(fixture, slug: "summer", id: 7)))
        }
    }

    /// With `androidDynamicRules`, Android 15+ keeps the exclusion (resolve says so) and Android 14 and older do not:
    /// still a move, named as such.
    @Test func withDynamicRulesOnlyOlderAndroidMoves() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, domainSettings: #","androidDynamicRules":true"#)
            let refused = try service.request("POST", "/v1/links", key: fixture.key, json: Self.link(fixture, slug: "spring"))
            #expect(refused.status == 409, "\(refused.text)")
            let refusedJSON = try refused.json
            let details = (refusedJSON["errors"]?.arrayValue ?? []).compactMap { $0["detail"]?.stringValue }
            #expect(
                details.contains { $0.contains("/private/") && $0.contains("Android 14 and older") && $0.contains("Android 15+ keeps") },
                "\(details)")
            try Fixture.expect(
                201, service.request("POST", "/v1/links?acknowledgeMoves=1", key: fixture.key, json: Self.link(fixture, slug: "spring")))
            // Resolve answers Android 15+: the dynamic rules keep the exclusion before the link space.
            #expect(try Self.resolve(fixture, "/private/x", "android")["outcome"]?.stringValue == "excluded")
            let assetLinks = try Fixture.expect(
                200, service.request("GET", "/.well-known/assetlinks.json", headers: [("Host", fixture.host)])
            ).text
            let exclusion = try #require(assetLinks.range(of: #""/private/*","exclude":true"#))
            let space = try #require(assetLinks.range(of: #""/":"/?*""#))
            #expect(exclusion.lowerBound < space.lowerBound)
            #expect(
                try Self.lint(fixture).contains {
                    $0["code"]?.stringValue == "linkSpaceMoves" && $0["message"]?.stringValue?.contains("Android 14 and older") == true
                })
        }
    }

    /// A link to a web page never opens an app on a phone that has it: refused where the domain's links open an app
    /// (iOS and Android alike), and a first link to an app is refused where links to web pages are, naming them.
    @Test func linksToWebPagesAndToAppsAreKeptApart() throws {
        try TestService.with { service in
            let fixture = try Fixture(
                service, rules: #"[{"apps":["$IOS","$ANDROID"],"path":"/widget/{id}","destination":{"type":"widgetDetail"}}]"#)
            try Fixture.expect(201, service.request("POST", "/v1/links", key: fixture.key, json: Self.web(fixture, slug: "about")))
            let first = try fixture.postLink(Self.link(fixture, slug: "spring"))
            #expect(first.status == 422, "\(first.text)")
            let firstJSON = try first.json
            #expect(firstJSON["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/app")
            #expect(first.text.contains("links.example.com/about"))
            // On a web page, a phone opens the page: no app claims the path.
            for platform in ["ios", "android"] {
                let answer = try Self.resolve(fixture, "/about", platform)
                #expect(answer["outcome"]?.stringValue == "no_match", "\(platform): \(answer)")
                #expect(answer["link"]?["url"]?.stringValue == "https://www.example.com/about")
            }
            // Once the page's link is gone, the app's link stands; a link to a web page is then refused.
            let id = try #require(
                try service.request("GET", "/v1/links", key: fixture.key).json["items"]?.arrayValue?.first?["id"]?.stringValue)
            try Fixture.expect(204, service.request("DELETE", "/v1/links/\(id)", key: fixture.key))
            try Fixture.expect(201, service.request("POST", "/v1/links", key: fixture.key, json: Self.link(fixture, slug: "spring")))
            let page = try fixture.postLink(Self.web(fixture, slug: "about"))
            #expect(page.status == 422, "\(page.text)")
            let pageJSON = try page.json
            #expect(pageJSON["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/url")
            #expect(
                page.text.contains("Widgets (iOS, ABCDE12345.com.example.widgets)")
                    && page.text.contains("Widgets (Android, com.example.widgets)"), "\(page.text)")
            // Nor may a PATCH turn the app's link into a web page while another link opens the app.
            try Fixture.expect(201, service.request("POST", "/v1/links", key: fixture.key, json: Self.link(fixture, slug: "summer", id: 5)))
            let spring = try #require(try service.request("GET", "/v1/links?q=spring", key: fixture.key).json["items"]?.arrayValue?.first)
            let patched = try service.request(
                "PATCH", "/v1/links/\(spring["id"]!.stringValue!)", key: fixture.key,
                json: #"{"app":null,"destination":null,"url":"https://www.example.com/spring"}"#)
            #expect(patched.status == 422, "\(patched.text)")
            let patchedJSON = try patched.json
            #expect(patchedJSON["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/url")
        }
    }

    /// Bulk, both imports and `PATCH` refuse alike, and take the same acknowledgement.
    @Test func everyDoorRefusesAndAcknowledgesAlike() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            func send(_ path: String, _ type: String, _ body: String) throws -> JSONValue {
                try Fixture.expect(
                    200,
                    HTTPTestClient.request(
                        port: service.port, method: "POST", path: path,
                        headers: [("Authorization", "Bearer \(fixture.key)"), ("Content-Type", type)],
                        body: Array(body.utf8), timeout: 60)
                ).json
            }
            // Bulk: the item is refused with the moves at /0/app.
            let bulk = try send("/v1/links/bulk", "application/json", "[\(Self.link(fixture, slug: "a"))]")
            let error = bulk["results"]?.arrayValue?.first?["error"]
            #expect(error?["status"] == .number("409"), "\(bulk)")
            #expect(error?["errors"]?.arrayValue?.first?["pointer"]?.stringValue == "/0/app")
            #expect(error?["errors"]?.arrayValue?.contains { $0["detail"]?.stringValue?.contains("/private/") == true } == true)

            // The CSV import: the row is refused at its app column.
            let csv = "domain,slug,app,destinationType,params\n\(fixture.host),b,\(fixture.iosApp),widgetDetail,\"{\"\"id\"\":3}\"\n"
            let imported = try send("/v1/links/import?format=csv", "text/csv", csv)
            #expect(imported["created"] == .number("0"), "\(imported)")
            let problem = imported["results"]?.arrayValue?.first?["problems"]?.arrayValue?.first
            #expect(
                problem?["column"]?.stringValue == "app" && problem?["detail"]?.stringValue?.contains("/private/") == true, "\(imported)")

            // The Firebase import: a deep link the rules type is a link to the app, refused alike.
            let header = try #require(LinkBatchAPITests.takeout.split(separator: "\n").first)
            let takeout = "\(header)\nhttps://\(fixture.host)/c,https://www.example.com/widget/4" + String(repeating: ",", count: 27) + "\n"
            let firebase = try send("/v1/links/import?format=firebase", "text/csv", takeout)
            #expect(firebase["created"] == .number("0"), "\(firebase)")
            #expect(firebase.serialized.contains("/private/"), "\(firebase)")
            #expect(try Self.links(fixture) == 0)

            // Acknowledged, each door creates.
            #expect(try send("/v1/links/import?format=firebase&acknowledgeMoves=true", "text/csv", takeout)["created"] == .number("1"))
            #expect(try send("/v1/links/import?format=csv&acknowledgeMoves=true", "text/csv", csv)["created"] == .number("1"))
            #expect(
                try send("/v1/links/bulk?acknowledgeMoves=true", "application/json", "[\(Self.link(fixture, slug: "a"))]")["created"]
                    == .number("1"))
        }
    }

    /// `PATCH` of a link onto a domain where it would move URLs: refused, then acknowledged.
    @Test func aPatchThatMovesIsRefusedUnlessAcknowledged() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"plain.example.com"}"#))
            let created = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/links", key: fixture.key,
                    json: """
                        {"domain":"plain.example.com","slug":"p","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":1}}}
                        """)
            ).json
            let id = try #require(created["id"]?.stringValue)
            let moved = try service.request("PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"domain":"\#(fixture.host)"}"#)
            #expect(moved.status == 409, "\(moved.text)")
            #expect(moved.text.contains("/private/"))
            try Fixture.expect(
                200,
                service.request("PATCH", "/v1/links/\(id)?acknowledgeMoves=true", key: fixture.key, json: #"{"domain":"\#(fixture.host)"}"#)
            )
            #expect(try Self.resolve(fixture, "/p", "ios")["link"]?["slug"]?.stringValue == "p")
        }
    }
}
