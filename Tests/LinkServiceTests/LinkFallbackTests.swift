import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// What a stored link's per-platform fallback replaces (docs/LINKS.md, "Fallbacks"): the web fallback, beside the
/// store page and its deferred link, unless the link says `skipStore`; and where an expired link sends people.
@Suite("Link fallbacks")
struct LinkFallbackTests {
    static let iosFallback = "https://www.example.com/ios-page"
    static let androidFallback = "https://www.example.com/android-page"

    private static func create(_ fixture: Fixture, _ members: String) throws -> JSONValue {
        try fixture.createLink(
            """
            {"domain":"\(fixture.host)","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":42}},
             "fallbacks":{"ios":"\(iosFallback)","android":"\(androidFallback)"}\(members)}
            """
        ).json
    }

    /// `text` with every byte but the unreserved ones percent-encoded, as a URL carried inside another is.
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"))!
    }

    private static func click(_ fixture: Fixture, _ path: String, agent: String) throws -> TestResponse {
        try fixture.service.request("GET", path, headers: [("Host", fixture.host), ("User-Agent", agent)])
    }

    @Test func theLandingPageKeepsTheStoreAndTheDeferredLinkAndOffersTheFallbackBeside() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service)
            let link = try Self.create(fixture, #","slug":"spring""#)
            #expect(link["skipStore"] == .bool(false))

            let iPhone = try Self.click(fixture, "/spring", agent: LandingTests.Agent.iPhone)
            LandingTests.expectPageHeaders(iPhone)
            #expect(
                iPhone.text.contains(
                    #"<meta name="apple-itunes-app" content="app-id=1234567890, app-argument=https://links.example.com/spring">"#))
            #expect(LandingTests.href(iPhone.text, "get") == LandingTests.appStore)
            #expect(LandingTests.href(iPhone.text, "web") == Self.iosFallback)

            let android = try Self.click(fixture, "/spring", agent: LandingTests.Agent.android)
            LandingTests.expectPageHeaders(android)
            let store = try #require(LandingTests.href(android.text, "get"))
            #expect(store.hasPrefix(LandingTests.play + "&referrer=linkd_token%3D"), "the deferred link's token")
            #expect(LandingTests.href(android.text, "web") == Self.androidFallback)
            let open = try #require(LandingTests.href(android.text, "open"))
            #expect(open.hasSuffix(";S.browser_fallback_url=" + Self.encoded(store) + ";end"))

            // A link that skips the store says so: no banner, no store button, no token; the fallback is the way on.
            let id = try #require(link["id"]?.stringValue)
            let patched = try Fixture.expect(
                200, service.request("PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"skipStore":true}"#)
            ).json
            #expect(patched["skipStore"] == .bool(true))
            let skipped = try Self.click(fixture, "/spring", agent: LandingTests.Agent.iPhone)
            #expect(!skipped.text.contains("apple-itunes-app"))
            #expect(LandingTests.href(skipped.text, "get") == nil)
            #expect(LandingTests.href(skipped.text, "web") == Self.iosFallback)
            let skippedAndroid = try Self.click(fixture, "/spring", agent: LandingTests.Agent.android)
            #expect(LandingTests.href(skippedAndroid.text, "get") == nil)
            #expect(!skippedAndroid.text.contains("referrer="))
            #expect(LandingTests.href(skippedAndroid.text, "web") == Self.androidFallback)
            #expect(
                LandingTests.href(skippedAndroid.text, "open")?.hasSuffix(
                    ";S.browser_fallback_url=" + Self.encoded(Self.androidFallback) + ";end") == true)
            // null is the default again.
            let cleared = try Fixture.expect(
                200, service.request("PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"skipStore":null}"#)
            ).json
            #expect(cleared["skipStore"] == .bool(false))
            #expect(
                LandingTests.href(try Self.click(fixture, "/spring", agent: LandingTests.Agent.iPhone).text, "get") == LandingTests.appStore
            )
        }
    }

    @Test func redirectsGoToTheStoreFirstUnlessTheLinkSkipsIt() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, domainSettings: ClickTests.redirect)
            _ = try Self.create(fixture, #","slug":"keep""#)
            _ = try Self.create(fixture, #","slug":"skip","skipStore":true"#)
            #expect(try Self.click(fixture, "/keep", agent: ClickTests.iPhone).headers["Location"] == LandingTests.appStore)
            #expect(try Self.click(fixture, "/keep", agent: ClickTests.pixel).headers["Location"] == LandingTests.play)
            #expect(try Self.click(fixture, "/skip", agent: ClickTests.iPhone).headers["Location"] == Self.iosFallback)
            #expect(try Self.click(fixture, "/skip", agent: ClickTests.pixel).headers["Location"] == Self.androidFallback)
            // A desktop has no store: the domain's web fallback, as before.
            #expect(try Self.click(fixture, "/keep", agent: ClickTests.desktop).headers["Location"] == "https://www.example.com/keep")
        }
    }

    @Test func anExpiredLinkGoesToTheWebFallbackElseSaysItExpired() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service)
            try fixture.createLink(
                """
                {"domain":"\(fixture.host)","slug":"old","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":1}},
                 "expiresAt":"2020-01-01T00:00:00Z"}
                """)
            for agent in [LandingTests.Agent.iPhone, LandingTests.Agent.android, LandingTests.Agent.chrome] {
                let response = try Self.click(fixture, "/old", agent: agent)
                #expect(response.status == 302 && response.headers["Location"] == "https://www.example.com/old", "\(agent)")
            }
            // No web fallback at all: a page that says the link expired, 410.
            try Fixture.expect(
                200, service.request("PATCH", "/v1/domains/\(fixture.host)", key: fixture.key, json: #"{"webFallbackUrl":null}"#))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: fixture.host)?.settings.webFallbackURL == nil }
            let gone = try Self.click(fixture, "/old", agent: LandingTests.Agent.iPhone)
            #expect(gone.status == 410 && gone.text.contains("This link has expired."))
        }
    }

    @Test func skipStoreIsABooleanThroughEveryDoor() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let refused = try fixture.postLink(
                """
                {"domain":"\(fixture.host)","url":"https://www.example.com/a","skipStore":"yes"}
                """)
            #expect(refused.status == 422 && refused.text.contains("/skipStore"), "\(refused.text)")
            let bulk = try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/links/bulk?acknowledgeMoves=true", key: fixture.key,
                    json: """
                        [{"domain":"\(fixture.host)","url":"https://www.example.com/b","skipStore":1},
                         {"domain":"\(fixture.host)","url":"https://www.example.com/c","skipStore":true}]
                        """)
            ).json
            #expect(bulk["created"] == .number("1"), "\(bulk)")
            #expect(bulk["results"]?.arrayValue?.first?.serialized.contains("/0/skipStore") == true)
            #expect(bulk["results"]?.arrayValue?.last?["skipStore"] == .bool(true))
            #expect(try service.request("GET", "/v1/links", key: fixture.key).json["items"]?.arrayValue?.count == 1)
        }
    }
}
