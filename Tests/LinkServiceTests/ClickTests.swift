import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

@Suite("Link clicks on redirect domains")
struct ClickTests {
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
    static let pixel =
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36"
    static let desktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
    static let slack = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
    /// The behaviour of domains registered before the landing page (`migrations/0012`).
    static let redirect = #","clickBehavior":"redirect""#

    func click(_ service: TestService, _ path: String, agent: String, method: String = "GET") throws -> TestResponse {
        try service.request(method, path, headers: [("Host", "links.example.com"), ("User-Agent", agent)])
    }

    @Test func iOSGoesToTheAppStoreAndroidToPlayDesktopToTheWeb() throws {
        try TestService.with { service in
            _ = try Fixture(service, domainSettings: Self.redirect)
            let ios = try click(service, "/widget/42", agent: Self.iPhone)
            #expect(ios.status == 302)
            #expect(ios.headers["Location"] == "https://apps.apple.com/app/id1234567890")
            #expect(ios.headers["Cache-Control"] == "no-store")
            let android = try click(service, "/widget/42", agent: Self.pixel)
            #expect(android.headers["Location"] == "https://play.google.com/store/apps/details?id=com.example.widgets")
            let desktop = try click(service, "/widget/42?tab=info", agent: Self.desktop)
            #expect(desktop.headers["Location"] == "https://www.example.com/widget/42?tab=info")
            // A link no app claims goes to the web on every platform.
            #expect(try click(service, "/about", agent: Self.iPhone).headers["Location"] == "https://www.example.com/about")
        }
    }

    @Test func linkPreviewBotsGetAPageWithTheTitle() throws {
        try TestService.with { service in
            _ = try Fixture(service, domainSettings: Self.redirect)
            let response = try click(service, "/widget/42", agent: Self.slack)
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(response.text.contains("<title>Widget</title>"))
        }
    }

    @Test func noOpenRedirect() throws {
        try TestService.with { service in
            _ = try Fixture(service, domainSettings: Self.redirect)
            for path in ["//evil.example/", "/%2F%2Fevil.example", "/redirect?to=https://evil.example"] {
                let response = try click(service, path, agent: Self.desktop)
                if let location = response.headers["Location"] {
                    #expect(location.hasPrefix("https://www.example.com/"), "\(path) → \(location)")
                }
            }
        }
    }

    /// The path carried to the web fallback is normalised and encoded, and lands in the fallback's path, before its
    /// query, which keeps its own items first (docs/LANDING.md, "The path carried to the web fallback").
    @Test func carriedPathsAreEncodedAndJoinedToTheFallbacksPath() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, domainSettings: Self.redirect)
            let key = fixture.key
            func location(_ path: String) throws -> String? { try click(service, path, agent: Self.desktop).headers["Location"] }
            #expect(try location(#"/\evil.example"#) == "https://www.example.com/%5Cevil.example")
            #expect(try location("/a/../../b/./c") == "https://www.example.com/b/c")
            #expect(try location("//evil.example/x") == "https://www.example.com/evil.example/x")
            try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/domains/links.example.com", key: key,
                    json: #"{"webFallbackUrl":"https://www.example.com/base?x=1#top"}"#))
            #expect(try location("/path?y=2&x=9") == "https://www.example.com/base/path?x=1&y=2#top")
            #expect(try location("/") == "https://www.example.com/base/?x=1#top")
        }
    }

    @Test func clicksAreCountedAsHits() throws {
        try TestService.with { service in
            _ = try Fixture(service, domainSettings: Self.redirect)
            _ = try click(service, "/widget/1", agent: Self.iPhone)
            _ = try click(service, "/widget/1", agent: Self.iPhone, method: "HEAD")
            #expect(service.application.hits.counters.accepted == 2)
            // Both are written, the HEAD one flagged as a bot (the classic cause of inflated click counts).
            var rows: [(Bool, String)] = []
            try waitUntil("both hits written: \(rows)") {
                rows = try service.application.pool.withConnection { connection in
                    try connection.query("SELECT is_bot, source FROM hits ORDER BY id").map { try $0.decode((Bool, String).self) }
                }
                return rows.count >= 2
            }
            #expect(rows.map(\.0) == [false, true])
            #expect(rows.map(\.1) == ["click", "click"])
        }
    }

    @Test func otherHostsAndMethods() throws {
        try TestService.with { service in
            _ = try Fixture(service, domainSettings: Self.redirect)
            let unknown = try service.request("GET", "/widget/1", headers: [("Host", "other.example.com")])
            #expect(unknown.status == 404)
            let post = try service.request("POST", "/widget/1", headers: [("Host", "links.example.com")])
            #expect(post.status == 405)
            // API paths are never clicks, on any host.
            #expect(try service.request("GET", "/v1/nothing", headers: [("Host", "links.example.com")]).status == 404)
        }
    }
}
