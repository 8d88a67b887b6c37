import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Clicks on a `landing` domain, per User-Agent class: the page or redirect each gets, its headers and links
/// (docs/LANDING.md).
@Suite("Landing page")
struct LandingTests {
    enum Agent {
        static let iPhone = ClickTests.iPhone
        static let iPad =
            "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
        static let android = ClickTests.pixel
        static let instagramIOS =
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 327.0.0.29.90 (iPhone14,2; iOS 17_4; en_US; en; scale=3.00; 1170x2532; 590066434)"
        static let instagramAndroid =
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 Instagram 321.0.0.39.106 Android (34/14; 420dpi; 1080x2205; Google/google; Pixel 8; shiba; shiba; en_US; 573601011)"
        static let facebookIOS =
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/455.0.0.44.107;FBBV/574392627;FBDV/iPhone14,2;FBMD/iPhone;FBSN/iOS;FBSV/17.4;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]"
        static let facebookAndroid =
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/455.0.0.44.107;]"
        static let chrome = ClickTests.desktop
        static let safari =
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15"
        static let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
        static let bots = [
            "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", "Twitterbot/1.0",
            "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", "WhatsApp/2.23.20.0 A",
            "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
            "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)", "TelegramBot (like TwitterBot)",
            "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
        ]
    }

    static let appStore = "https://apps.apple.com/app/id1234567890"
    static let play = "https://play.google.com/store/apps/details?id=com.example.widgets"

    /// A landing domain whose iOS app has the scheme `widgets`, and whose destination has preview metadata.
    static func fixture(_ service: TestService, domain: String = "", destination: String = "") throws -> Fixture {
        try Fixture(
            service, domainSettings: domain, iosApp: #","customScheme":"widgets""#,
            destination: destination.isEmpty
                ? #","description":"A widget, in the app.","imageUrl":"https://cdn.example.com/w.png""# : destination)
    }

    static func click(_ service: TestService, _ path: String, agent: String, host: String = "links.example.com") throws -> TestResponse {
        try service.request("GET", path, headers: [("Host", host), ("User-Agent", agent)])
    }

    /// The `href` of the element with `id` (HTML-unescaped), nil when there is none.
    static func href(_ html: String, _ id: String) -> String? {
        attribute(html, after: "id=\"\(id)\"", "href")
    }

    static func attribute(_ html: String, after marker: String, _ name: String) -> String? {
        guard let start = html.range(of: marker) else { return nil }
        let rest = html[start.upperBound...]
        guard let open = rest.range(of: "\(name)=\""), let close = rest[open.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(rest[open.upperBound..<close]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(
            of: "&#39;", with: "'"
        )
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(
            of: "&amp;", with: "&")
    }

    static func expectPageHeaders(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 200, sourceLocation: sourceLocation)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8", sourceLocation: sourceLocation)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff", sourceLocation: sourceLocation)
        #expect(response.headers["Referrer-Policy"] == "no-referrer", sourceLocation: sourceLocation)
        let csp = response.headers["Content-Security-Policy"] ?? ""
        #expect(csp.hasPrefix("default-src 'none'; style-src 'sha256-"), sourceLocation: sourceLocation)
        #expect(!csp.contains("unsafe"), sourceLocation: sourceLocation)
        #expect(response.body.count < 10_240, "\(response.body.count) bytes", sourceLocation: sourceLocation)
    }

    @Test func iPhoneSafariGetsBannerSchemeStoreAndWeb() throws {
        try TestService.with { service in
            _ = try Self.fixture(service)
            let response = try Self.click(service, "/widget/42?tab=info", agent: Agent.iPhone)
            Self.expectPageHeaders(response)
            #expect(response.headers["Cache-Control"] == "no-store")
            let html = response.text
            #expect(
                html.contains(
                    #"<meta name="apple-itunes-app" content="app-id=1234567890, app-argument=https://links.example.com/widget/42?tab=info">"#
                ))
            #expect(Self.href(html, "open") == "widgets://widget/42?tab=info")
            #expect(Self.href(html, "get") == Self.appStore)
            #expect(Self.href(html, "web") == "https://www.example.com/widget/42?tab=info")
            #expect(!html.contains("id=\"hint\""))
            #expect(!html.contains("<script")) // no clipboard opt-in: no script at all
            #expect(html.contains(#"<meta property="og:title" content="Widget">"#))
            #expect(html.contains(#"<meta property="og:description" content="A widget, in the app.">"#))
            #expect(html.contains(#"<meta property="og:image" content="https://cdn.example.com/w.png">"#))
            #expect(html.contains(#"<meta name="viewport" content="width=device-width,initial-scale=1">"#))
            // The iPad is iOS too.
            let iPad = try Self.click(service, "/widget/42", agent: Agent.iPad)
            #expect(Self.href(iPad.text, "open") == "widgets://widget/42")
            #expect(Self.href(iPad.text, "get") == Self.appStore)
        }
    }

    @Test func androidChromeGetsTheIntentURLAndPlay() throws {
        try TestService.with { service in
            _ = try Self.fixture(service)
            let response = try Self.click(service, "/widget/42?tab=info", agent: Agent.android)
            Self.expectPageHeaders(response)
            let html = response.text
            let store = try #require(Self.href(html, "get"))
            #expect(store.hasPrefix(Self.play + "&referrer=linkd_token%3D"))
            let open = try #require(Self.href(html, "open"))
            let fallback = store.addingPercentEncoding(
                withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"))!
            #expect(
                open
                    == "intent://links.example.com/widget/42?tab=info#Intent;scheme=https;package=com.example.widgets;S.browser_fallback_url=\(fallback);end"
            )
            #expect(Self.href(html, "web") == "https://www.example.com/widget/42?tab=info")
            #expect(!html.contains("apple-itunes-app"))
        }
    }

    @Test func inAppBrowsersGetTheHint() throws {
        try TestService.with { service in
            _ = try Self.fixture(service)
            for (agent, browser, ios) in [
                (Agent.instagramIOS, "Safari", true), (Agent.facebookIOS, "Safari", true),
                (Agent.instagramAndroid, "Chrome", false), (Agent.facebookAndroid, "Chrome", false),
            ] {
                let response = try Self.click(service, "/widget/7", agent: agent)
                Self.expectPageHeaders(response)
                let html = response.text
                #expect(html.contains("id=\"hint\""), "\(agent)")
                #expect(html.contains("Open in \(browser)"), "\(agent)")
                #expect(
                    Self.href(html, "open")?.hasPrefix(ios ? "widgets://widget/7" : "intent://links.example.com/widget/7#Intent;") == true,
                    "\(agent)")
                #expect(Self.href(html, "get")?.hasPrefix(ios ? Self.appStore : Self.play) == true, "\(agent)")
            }
        }
    }

    @Test func desktopGoesToTheWebOrGetsTheQRCode() throws {
        try TestService.with { service in
            _ = try Self.fixture(service)
            for agent in [Agent.chrome, Agent.safari, Agent.firefox] {
                let response = try Self.click(service, "/widget/42", agent: agent)
                #expect(response.status == 302, "\(agent)")
                #expect(response.headers["Location"] == "https://www.example.com/widget/42")
            }
            // Without a web fallback: the page with the QR code of the link.
            let key = try service.key()
            try Fixture.expect(200, service.request("PATCH", "/v1/domains/links.example.com", key: key, json: #"{"webFallbackUrl":null}"#))
            #expect(eventually { service.application.catalog.entry(exactly: "links.example.com")?.settings.webFallbackURL == nil })
            let page = try Self.click(service, "/widget/42", agent: Agent.firefox)
            Self.expectPageHeaders(page)
            #expect(page.text.contains("<div class=\"qr\" id=\"qr\"><svg"))
            #expect(Self.href(page.text, "web") == nil)
        }
    }

    @Test func botsGetThePreviewPageAndNoToken() throws {
        try TestService.with { service in
            _ = try Self.fixture(service)
            for agent in Agent.bots {
                let response = try Self.click(service, "/widget/42", agent: agent)
                Self.expectPageHeaders(response)
                #expect(response.headers["Cache-Control"] == "public, max-age=300", "\(agent)")
                let html = response.text
                #expect(html.contains(#"<meta property="og:title" content="Widget">"#), "\(agent)")
                #expect(html.contains(#"<meta name="twitter:card" content="summary_large_image">"#), "\(agent)")
                #expect(html.contains(#"<meta name="twitter:image" content="https://cdn.example.com/w.png">"#), "\(agent)")
                #expect(!html.contains("href="), "\(agent)")
            }
            service.application.tokens.flush()
            let tokens = try service.application.pool.withConnection {
                try $0.query("SELECT count(*)::int8 FROM click_tokens").first!.decode(0, as: Int.self)
            }
            #expect(tokens == 0)
        }
    }

    @Test func redirectDomainsAndRulesKeepTheRedirects() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, domainSettings: ClickTests.redirect, iosApp: #","customScheme":"widgets""#)
            #expect(try Self.click(service, "/widget/42", agent: Agent.iPhone).headers["Location"] == Self.appStore)
            #expect(try Self.click(service, "/widget/42", agent: Agent.android).headers["Location"] == Self.play)
            // A rule asks for the landing page on a redirect domain, and another rule for redirects on a landing one.
            let rules =
                #"[{"apps":["$IOS"],"path":"/l/{id}","destination":{"type":"widgetDetail"},"click":{"behavior":"landing","title":"Rule title"}},"#
                + #"{"apps":["$IOS"],"path":"/r/{id}","destination":{"type":"widgetDetail"},"click":{"behavior":"redirect"}}]"#
            let body = #"{"rules":"# + rules.replacingOccurrences(of: "$IOS", with: fixture.iosApp) + "}"
            try Fixture.expect(200, service.request("PUT", "/v1/domains/links.example.com/rules", key: fixture.key, json: body))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: "links.example.com")?.clicks.count == 2 }
            let landing = try Self.click(service, "/l/5", agent: Agent.iPhone)
            Self.expectPageHeaders(landing)
            #expect(landing.text.contains("<h1>Rule title</h1>"))
            try Fixture.expect(
                200, service.request("PATCH", "/v1/domains/links.example.com", key: fixture.key, json: #"{"clickBehavior":"landing"}"#))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: "links.example.com")?.settings.clickBehavior == .landing }
            #expect(try Self.click(service, "/r/5", agent: Agent.iPhone).headers["Location"] == Self.appStore)
            #expect(try Self.click(service, "/l/5", agent: Agent.iPhone).status == 200)
        }
    }

    @Test func newDomainsDefaultToLandingAndSettingsAreChecked() throws {
        try TestService.with { service in
            let fixture = try Self.fixture(service)
            let domain = try service.request("GET", "/v1/domains/links.example.com", key: fixture.key).json
            #expect(domain["clickBehavior"]?.stringValue == "landing")
            #expect(domain["deferredTTL"] == .number("86400"))
            #expect(domain["deferredClipboard"] == .bool(false))
            for bad in [#"{"clickBehavior":"bounce"}"#, #"{"deferredTTL":5}"#, #"{"deferredClipboard":"yes"}"#] {
                let response = try service.request("PATCH", "/v1/domains/links.example.com", key: fixture.key, json: bad)
                #expect(response.status == 422, "\(bad)")
                #expect(response.headers["Content-Type"] == "application/problem+json")
            }
            let badRule = #"{"rules":[{"apps":["\#(fixture.iosApp)"],"path":"/x","click":{"imageUrl":"http://cdn.example.com/a.png"}}]}"#
            #expect(try service.request("PUT", "/v1/domains/links.example.com/rules", key: fixture.key, json: badRule).status == 422)
            let badImage = try service.request(
                "PUT", "/v1/apps/\(fixture.iosApp)/destinations/widgetDetail", key: fixture.key,
                json: #"{"imageUrl":"javascript:alert(1)"}"#)
            #expect(badImage.status == 422)
        }
    }

    @Test func hostileTitlesAreEscaped() throws {
        try TestService.with { service in
            let hostile = #"</title><script>alert(1)</script>\"' onload=\"x"#
            _ = try Self.fixture(service)
            let key = try service.key()
            let apps = try service.request("GET", "/v1/apps", key: key).json["items"]!.arrayValue!
            let ios = apps.first { $0["platform"]?.stringValue == "ios" }!["id"]!.stringValue!
            try Fixture.expect(
                200,
                service.request(
                    "PUT", "/v1/apps/\(ios)/destinations/widgetDetail", key: key,
                    json: """
                        {"title":"\(hostile)","description":"\(hostile)","params":{"id":{"type":"int","min":1}}}
                        """))
            #expect(
                eventually {
                    service.application.catalog.entry(exactly: "links.example.com")?.compiled.apps.contains {
                        $0.previews["widgetDetail"]?.description != nil && $0.titles["widgetDetail"] != "Widget"
                    } == true
                })
            for agent in [Agent.iPhone, Agent.bots[1]] {
                let html = try Self.click(service, "/widget/42?q=%22%3E%3Cscript%3E%3Cimg%3E", agent: agent).text
                #expect(!html.contains("<script>alert"), "\(agent)")
                #expect(!html.contains("<img"), "\(agent)")
                #expect(html.contains("&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39; onload=&quot;x"), "\(agent)")
            }
        }
    }

    @Test func noOpenRedirectThroughAnyField() throws {
        try TestService.with { service in
            _ = try Self.fixture(service)
            let allowed = [
                "https://www.example.com/", Self.appStore, Self.play, "widgets://", "intent://links.example.com/",
                "https://links.example.com/",
            ]
            for agent in [Agent.iPhone, Agent.android, Agent.instagramIOS, Agent.chrome] {
                for path in [
                    "//evil.example/", "/widget/1?next=https://evil.example", "/widget/1/../../evil", "/%2F%2Fevil.example",
                    "/widget/1?x=%22%20href=%22https://evil.example", "/widget/1#https://evil.example",
                ] {
                    let response = try Self.click(service, path, agent: agent)
                    if let location = response.headers["Location"] {
                        #expect(allowed.contains { location.hasPrefix($0) }, "\(path) → \(location)")
                    }
                    for id in ["open", "get", "web"] {
                        guard let href = Self.href(response.text, id) else { continue }
                        #expect(allowed.contains { href.hasPrefix($0) }, "\(agent) \(path): \(id) → \(href)")
                        if href.hasPrefix("intent://") {
                            let fallback =
                                href.components(separatedBy: "S.browser_fallback_url=").last?.components(separatedBy: ";").first?
                                .removingPercentEncoding ?? ""
                            #expect(fallback.hasPrefix(Self.play) || fallback.hasPrefix("https://www.example.com/"), "\(path): \(fallback)")
                        }
                    }
                    #expect(!response.text.contains("href=\"https://evil"), "\(path)")
                }
            }
        }
    }

    @Test func hitsRecordWhatTheClickGot() throws {
        try TestService.with { service in
            let fixture = try Self.fixture(service)
            _ = try Self.click(service, "/widget/1", agent: Agent.iPhone) // landing
            _ = try Self.click(service, "/widget/1", agent: Agent.chrome) // the web fallback
            _ = try Self.click(service, "/widget/1", agent: Agent.bots[0]) // preview
            #expect(eventually { service.application.hits.counters.written == 3 })
            let served = try service.application.pool.withConnection { connection in
                try connection.query("SELECT served FROM hits ORDER BY id").map { try $0.decode(0, as: String.self) }
            }
            #expect(served == ["landing", "web_fallback", "preview"])
            let summary = try service.request("GET", "/v1/analytics/summary?includeBots=true", key: fixture.key).json
            #expect(
                summary["byServed"]
                    == .object(
                        Hit.Served.allCases.map {
                            JSONMember(key: $0.rawValue, value: .number([.landing, .webFallback, .preview].contains($0) ? "1" : "0"))
                        }))
            let top = try service.request("GET", "/v1/analytics/top?dimension=served&includeBots=true", key: fixture.key)
            #expect(top.status == 200)
            let items = try top.json["items"]?.arrayValue
            #expect(items?.count == 3)
            let landing = try service.request("GET", "/v1/analytics/summary?served=landing", key: fixture.key).json
            #expect(landing["hits"] == .number("1"))
            let grouped = try service.request("GET", "/v1/analytics/timeseries?groupBy=served&includeBots=true", key: fixture.key)
            #expect(grouped.status == 200)
            #expect(grouped.text.contains("\"landing\":1"))
            #expect(try service.request("GET", "/v1/analytics/summary?served=bounce", key: fixture.key).status == 400)
        }
    }

    /// The page's escaping, which text with nothing to escape skips, writes exactly what escaping every character
    /// writes: character references for `& < > " '`, bidirectional controls left out, everything else as it is; and
    /// a URL in an attribute keeps exactly the printable ASCII but `" ' < > \ ^ ` { | }`.
    @Test func escapingWritesWhatEscapingEveryCharacterWrites() {
        func reference(_ text: String) -> String {
            var out = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                case "\"": out += "&quot;"
                case "'": out += "&#39;"
                case _ where (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value): continue
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out
        }
        let pieces = [
            "a", "Z", "0", " ", "&", "<", ">", "\"", "'", "%20", "é", "春", "\u{202E}", "\u{2066}", "\u{1F600}", "\n", "/", "?x=1",
        ]
        var generator = SystemRandomNumberGenerator()
        for length in 0..<12 {
            for _ in 0..<200 {
                let text = (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()
                #expect(LandingPage.escape(text) == reference(text), "\(text.debugDescription)")
            }
        }
        for byte in UInt8.min...UInt8.max {
            let expected = byte > 0x20 && byte < 0x7F && !"\"'<>\\^`{|}".utf8.contains(byte)
            #expect(LandingPage.allowedInURL(byte) == expected, "\(byte)")
        }
    }
}
