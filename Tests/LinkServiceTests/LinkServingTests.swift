import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Stored links as resolve, clicks and the association files serve them (docs/LINKS.md, "Serving links").
@Suite("Serving links")
struct LinkServingTests {
    private static func create(_ fixture: Fixture, _ members: String) throws -> TestResponse {
        try fixture.postLink(#"{"domain":"\#(fixture.host)"\#(members)}"#)
    }

    private static func resolve(_ fixture: Fixture, _ path: String, platform: String = "ios") throws -> JSONValue {
        let url = "https://\(fixture.host)\(path)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return try Fixture.expect(200, fixture.service.request("GET", "/v1/resolve?url=\(url)&platform=\(platform)", key: fixture.key)).json
    }

    private static func click(_ fixture: Fixture, _ path: String, agent: String) throws -> TestResponse {
        try fixture.service.request("GET", path, headers: [("Host", fixture.host), ("User-Agent", agent)])
    }

    private static func aasa(_ fixture: Fixture) throws -> TestResponse {
        try Fixture.expect(
            200, fixture.service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host)]))
    }

    @Test func aLinkOpensItsDestinationOnBothPlatformsWithItsCampaignAndData() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, domainSettings: ClickTests.redirect)
            let before = try Self.aasa(fixture)
            #expect(!before.text.contains(LinkSpace.comment))
            // A link to a web page claims nothing: the files stay as they are.
            let page = try Fixture.expect(201, Self.create(fixture, #","slug":"about-us","url":"https://www.example.com/team""#)).json
            #expect(try Self.aasa(fixture).headers["ETag"] == before.headers["ETag"])
            // A web page link goes to its page, on a phone with the app too (no app claims its path).
            #expect(try Self.click(fixture, "/about-us", agent: ClickTests.desktop).headers["Location"] == "https://www.example.com/team")
            #expect(try Self.resolve(fixture, "/about-us")["link"]?["url"]?.stringValue == "https://www.example.com/team")
            #expect(try Self.resolve(fixture, "/about-us", platform: "android")["outcome"]?.stringValue == "no_match")
            // Links to apps and to web pages stand on different domains: the page's link goes first.
            try Fixture.expect(204, service.request("DELETE", "/v1/links/\(try #require(page["id"]?.stringValue))", key: fixture.key))

            try Fixture.expect(
                201,
                Self.create(
                    fixture,
                    """
                    ,"slug":"spring24","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":42,"tab":"reviews"}},
                     "campaign":{"source":"newsletter","campaign":"spring24"},"data":{"coupon":"SPRING"},"name":"Spring newsletter"
                    """))
            // The first link to an app claims the link space, after the rules, for the app and its Android twin.
            let claimed = try Self.aasa(fixture)
            #expect(claimed.headers["ETag"] != before.headers["ETag"])
            let details = try #require(try claimed.json["applinks"]?["details"]?.arrayValue)
            let last = try #require(details.last)
            #expect(last["components"]?.arrayValue?.last?["/"]?.stringValue == LinkSpace.pattern)
            #expect(last["appIDs"]?.arrayValue?.contains(.string("ABCDE12345.com.example.widgets")) == true)
            let assetLinks = try Fixture.expect(
                200, service.request("GET", "/.well-known/assetlinks.json", headers: [("Host", fixture.host)]))

            let ios = try Self.resolve(fixture, "/spring24?utm_medium=email")
            #expect(ios["outcome"]?.stringValue == "open_app")
            #expect(ios["app"]?["id"]?.stringValue == fixture.iosApp)
            #expect(
                ios["destination"]
                    == .object([
                        "type": .string("widgetDetail"),
                        "params": .object(["id": .number("42"), "tab": .string("reviews")]),
                    ]))
            #expect(ios["link"]?["slug"]?.stringValue == "spring24")
            #expect(ios["link"]?["campaign"]?["campaign"]?.stringValue == "spring24")
            #expect(ios["link"]?["data"] == .object(["coupon": .string("SPRING")]))
            // The stored link decided, not a rule: no `rule` (the link space has no id a client could look up).
            #expect(ios["rule"] == nil, "\(ios)")
            let android = try Self.resolve(fixture, "/spring24", platform: "android")
            #expect(android["outcome"]?.stringValue == "open_app")
            #expect(android["app"]?["id"]?.stringValue == fixture.androidApp)
            #expect(android["destination"]?["params"]?["id"] == .number("42"))
            // A path with no link stays the rules' (the link space opens the app, which learns there is no link).
            #expect(try Self.resolve(fixture, "/nothing-here")["link"] == nil)

            // Another link of the same app leaves the files byte for byte.
            try Fixture.expect(
                201, Self.create(fixture, #","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":7}}"#))
            #expect(try Self.aasa(fixture).headers["ETag"] == claimed.headers["ETag"])
            #expect(
                try service.request("GET", "/.well-known/assetlinks.json", headers: [("Host", fixture.host)]).headers["ETag"]
                    == assetLinks.headers["ETag"])

            // Clicks: a phone without the app goes to the store.
            #expect(
                try Self.click(fixture, "/spring24", agent: ClickTests.iPhone).headers["Location"]
                    == "https://apps.apple.com/app/id1234567890")

            // Taps record the link and its campaign, the URL's own utm_* winning field by field.
            _ = try Self.click(fixture, "/spring24?utm_source=sms", agent: ClickTests.pixel)
            let linkID = try #require(try Self.resolve(fixture, "/spring24")["link"]?["id"]?.stringValue)
            var top: [JSONValue] = []
            #expect(
                try eventually {
                    top =
                        try Fixture.expect(
                            200,
                            service.request(
                                "GET", "/v1/analytics/top?dimension=link&utm_campaign=spring24&source=click",
                                key: fixture.key)
                        ).json["items"]?.arrayValue ?? []
                    return top.first?["hits"] == .number("2")
                })
            #expect(top.first?["link"]?.stringValue == linkID)
            #expect(top.first?["hits"] == .number("2"))
            let sources =
                try Fixture.expect(
                    200,
                    service.request(
                        "GET", "/v1/analytics/top?dimension=utm_source&link=\(linkID)&source=click",
                        key: fixture.key)
                ).json["items"]?.arrayValue ?? []
            #expect(Set(sources.compactMap { $0["utm_source"]?.stringValue }) == ["newsletter", "sms"])
        }
    }

    @Test func expiredAndSpentLinksNeverOpenTheirDestination() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, domainSettings: ClickTests.redirect)
            let destination = #","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":3}}"#
            try Fixture.expect(201, Self.create(fixture, #","slug":"old","expiresAt":"2020-01-01T00:00:00Z""# + destination))
            let expired = try Self.resolve(fixture, "/old")
            #expect(expired["destination"]?["error"]?["code"]?.stringValue == "link_expired")
            #expect(expired["link"]?["expired"] == .bool(true))
            // An expired link sends people to the domain's web fallback rather than to a dead end.
            #expect(try Self.click(fixture, "/old", agent: ClickTests.iPhone).headers["Location"] == "https://www.example.com/old")

            try Fixture.expect(
                201,
                Self.create(
                    fixture,
                    #","slug":"gone","expiresAt":"2020-01-01T00:00:00Z","fallbacks":{"ios":"https://www.example.com/sorry"}"# + destination)
            )
            #expect(try Self.click(fixture, "/gone", agent: ClickTests.iPhone).headers["Location"] == "https://www.example.com/sorry")

            try Fixture.expect(
                201,
                Self.create(
                    fixture,
                    #","slug":"twice","maxClicks":2,"fallbacks":{"ios":"https://www.example.com/ios"},"skipStore":true"# + destination))
            #expect(try Self.resolve(fixture, "/twice")["destination"]?["params"]?["id"] == .number("3"))
            for _ in 0..<2 {
                #expect(try Self.click(fixture, "/twice", agent: ClickTests.iPhone).headers["Location"] == "https://www.example.com/ios")
            }
            #expect(try Self.resolve(fixture, "/twice")["destination"]?["error"]?["code"]?.stringValue == "link_expired")
            // The link's answer says how many taps were counted against its limit (added to the database every second).
            var counted: JSONValue?
            #expect(
                try eventually {
                    counted = try service.request("GET", "/v1/links?q=twice", key: fixture.key).json["items"]?.arrayValue?.first?["clicks"]
                    return counted == .number("2")
                }, "\(String(describing: counted))")
            // Bots, HEAD requests and HTTP libraries do not spend a link (analytics do not count them as taps either).
            try Fixture.expect(201, Self.create(fixture, #","slug":"once","maxClicks":1"# + destination))
            _ = try Self.click(fixture, "/once", agent: ClickTests.slack)
            _ = try Self.click(fixture, "/once", agent: "curl/8.5.0")
            _ = try fixture.service.request("HEAD", "/once", headers: [("Host", fixture.host), ("User-Agent", ClickTests.iPhone)])
            #expect(try Self.resolve(fixture, "/once")["destination"]?["params"]?["id"] == .number("3"))
            _ = try Self.click(fixture, "/once", agent: ClickTests.iPhone)
            #expect(try Self.resolve(fixture, "/once")["destination"]?["error"]?["code"]?.stringValue == "link_expired")

            // An edit is served at once (this node dropped what it kept).
            let links = try service.request("GET", "/v1/links?q=old", key: fixture.key).json["items"]!.arrayValue!
            let id = try #require(links.first?["id"]?.stringValue)
            try Fixture.expect(200, service.request("PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"expiresAt":null}"#))
            #expect(try Self.resolve(fixture, "/old")["destination"]?["params"]?["id"] == .number("3"))
            try Fixture.expect(204, service.request("DELETE", "/v1/links/\(id)", key: fixture.key))
            #expect(try Self.resolve(fixture, "/old")["link"] == nil)
        }
    }

    /// A phone's landing page names the app, shows its icon and the link's preview image (their origins alone
    /// allowed by the page's policy), and the click token claims the link's campaign and data after an install.
    @Test func theLandingPageShowsTheAppAndTheClaimCarriesTheLinksData() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, iosApp: #","iconUrl":"https://cdn.example.com/widgets.png""#)
            try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/apps/\(fixture.androidApp)", key: fixture.key,
                    json: #"{"iconUrl":"https://cdn.example.com/widgets-android.png"}"#))
            let app = try Fixture.expect(200, service.request("GET", "/v1/apps/\(fixture.iosApp)", key: fixture.key)).json
            #expect(app["iconUrl"]?.stringValue == "https://cdn.example.com/widgets.png")
            try Fixture.expect(
                422,
                service.request(
                    "PATCH", "/v1/apps/\(fixture.iosApp)", key: fixture.key, json: #"{"iconUrl":"http://cdn.example.com/i.png"}"#))
            try Fixture.expect(
                201,
                Self.create(
                    fixture,
                    """
                    ,"slug":"promo","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":9}},
                     "campaign":{"source":"push","campaign":"autumn"},"data":{"coupon":"FALL10"},
                     "preview":{"title":"Autumn sale","imageUrl":"https://img.example.net:8443/autumn.png"}
                    """))

            let page = try Self.click(fixture, "/promo", agent: ClickTests.pixel)
            #expect(page.status == 200)
            #expect(
                page.text.contains(
                    #"<div class="app" id="app"><img src="https://cdn.example.com/widgets-android.png" alt="" width="48" height="48"><span>Widgets</span></div>"#
                ))
            #expect(page.text.contains(#"<img class="hero" id="image" src="https://img.example.net:8443/autumn.png" alt="">"#))
            #expect(page.text.contains("<h1>Autumn sale</h1>"))
            let policy = try #require(page.headers["Content-Security-Policy"])
            #expect(policy.contains("img-src https://cdn.example.com https://img.example.net:8443;"))
            let ios = try Self.click(fixture, "/promo", agent: ClickTests.iPhone)
            #expect(ios.text.contains(#"src="https://cdn.example.com/widgets.png""#))
            // The preview page bots get shows no image: its policy allows none.
            // (A link to a web page, on a domain of its own: the links here open the app.)
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"web.example.com"}"#))
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/links", key: fixture.key,
                    json: #"{"domain":"web.example.com","slug":"plain","url":"https://www.example.com/plain","preview":{"title":"Plain"}}"#)
            )
            let plain = try service.request("GET", "/plain", headers: [("Host", "web.example.com"), ("User-Agent", ClickTests.slack)])
            #expect(plain.headers["Content-Security-Policy"]?.contains("img-src 'none'") == true)

            // The Play Store referrer's token claims the link's answer: its campaign and data reach the new install.
            let store = try #require(LandingTests.href(page.text, "get"))
            let referrer = try #require(URLComponents(string: store)?.queryItems?.first { $0.name == "referrer" }?.value)
            let token = String(referrer.dropFirst(ClickHandler.referrerPrefix.count))
            let claimed = try Fixture.expect(200, service.request("POST", "/v1/deferred/claim", json: #"{"token":"\#(token)"}"#)).json
            #expect(claimed["link"]?["slug"]?.stringValue == "promo")
            #expect(claimed["link"]?["data"] == .object(["coupon": .string("FALL10")]))
            #expect(claimed["link"]?["campaign"]?["campaign"]?.stringValue == "autumn")
            #expect(claimed["destination"]?["params"]?["id"] == .number("9"))
        }
    }

    @Test func aSlugARuleDecidesOtherwiseIsRefused() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let excluded = try Self.create(fixture, #","slug":"private/x","url":"https://www.example.com""#)
            #expect(excluded.status == 422)
            #expect(excluded.text.contains("rule 0"))
            // A web page link where a rule opens an app would open the app on a phone.
            let opened = try Self.create(fixture, #","slug":"widget/5","url":"https://www.example.com""#)
            #expect(opened.status == 422)
            #expect(opened.text.contains("rule 1"))
            // The app's own rule may decide the slug: the link adds its destination, campaign and data.
            try Fixture.expect(
                201,
                Self.create(
                    fixture, #","slug":"widget/5","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":9}}"#))
            #expect(try Self.resolve(fixture, "/widget/5")["destination"]?["params"]?["id"] == .number("9"))
            // Nothing was created by the refusals.
            #expect(try service.request("GET", "/v1/links", key: fixture.key).json["items"]?.arrayValue?.count == 1)

            // A rule change that would decide stored links otherwise says which, at the rule.
            try Fixture.expect(
                201,
                Self.create(
                    fixture, #","slug":"sale/today","app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":2}}"#))
            let preview = try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/domains/\(fixture.host)/preview", key: fixture.key,
                    json: """
                        {"rules":[{"apps":["\(fixture.iosApp)"],"path":"/sale/*","exclude":true}]}
                        """)
            ).json
            let findings = try #require(preview["lint"]?.arrayValue).filter { $0["code"]?.stringValue == "shadowedLinks" }
            #expect(findings.count == 1)
            #expect(findings.first?["pointer"]?.stringValue == "/rules/0")
            #expect(findings.first?["message"]?.stringValue?.contains("/sale/today") == true)
        }
    }
}
