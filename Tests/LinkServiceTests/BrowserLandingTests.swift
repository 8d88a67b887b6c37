import Foundation
@testable import LinkService
import Testing
import TestSupport

/// The landing page in a real browser: Debian's headless Chromium through chromium-driver and python3-selenium
/// (`Browser/landing_page.py`), at 390x844 with an iPhone User-Agent. The buttons must be visible and point
/// where they should; the screenshot goes to `.build/test-output/` and, with `LINKD_UPDATE_SCREENSHOTS=1`, to
/// `docs/images/landing-iphone.png` (the README's).
@Suite("Landing page in a browser")
struct BrowserLandingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser/landing_page.py").path

    @Test func theButtonsAreVisibleAndPointRight() throws {
        try TestService.with { service in
            _ = try LandingTests.fixture(
                service, destination: #","description":"Open widget 42 in the Widgets app to see its details and reviews.""#)
            let output = Self.root.appendingPathComponent(".build/test-output")
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            var shots = [output.appendingPathComponent("landing-iphone.png").path]
            if ProcessInfo.processInfo.environment["LINKD_UPDATE_SCREENSHOTS"] == "1" {
                shots.append(Self.root.appendingPathComponent("docs/images/landing-iphone.png").path)
            }
            let expected =
                #"{"open":"widgets://widget/42?tab=info","get":"\#(LandingTests.appStore)","web":"https://www.example.com/widget/42?tab=info"}"#
            let url = "http://links.example.com:\(service.port)/widget/42?tab=info"
            // Debian's python3, which python3-selenium is installed for (a python3 earlier on PATH may lack it).
            let browser = try Subprocess("/usr/bin/python3", [Self.script, url, "links.example.com", expected] + shots, mergeErrors: true)
            let status = try browser.wait(timeout: 180)
            #expect(status == 0, "\(browser.standardOutput.suffix(3000))")
            #expect(FileManager.default.fileExists(atPath: shots[0]))
            // The browser's click is a hit like any other, and got the landing page.
            #expect(
                eventually {
                    (try? service.application.pool.withConnection { connection in
                        try connection.query("SELECT count(*)::int8 FROM hits WHERE served = 'landing' AND platform = 'ios'").first!.decode(
                            0, as: Int.self)
                    }) ?? 0 >= 1
                })
        }
    }

    /// A path no rule claims, on a domain without a web fallback: the browser (which asks for text/html) shows the
    /// 404 page with the domain's name and the App Store button, readable at phone width.
    @Test func theNotFoundPageShowsTheDomainAndTheStore() throws {
        try TestService.with { service in
            _ = try NotFoundPageTests.fixture(service)
            let shot = Self.root.appendingPathComponent(".build/test-output/not-found-iphone.png").path
            try FileManager.default.createDirectory(atPath: (shot as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let url = "http://links.example.com:\(service.port)/nothing/here"
            let browser = try Subprocess(
                "/usr/bin/python3", [Self.script, url, "links.example.com", #"{"get":"\#(LandingTests.appStore)"}"#, shot],
                mergeErrors: true)
            let status = try browser.wait(timeout: 180)
            #expect(status == 0, "\(browser.standardOutput.suffix(3000))")
            #expect(FileManager.default.fileExists(atPath: shot))
        }
    }

    /// A link whose title is 199 characters without a space: the heading wraps inside the page at 390 and 320 px.
    @Test func aLongTitleWraps() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service)
            let title = "A" + String(repeating: "VeryLongTitleWithoutSpaces", count: 7) + String(repeating: "x", count: 16)
            try fixture.createLink(
                """
                {"domain":"links.example.com","slug":"long","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":42}},
                 "preview":{"title":"\(title)"}}
                """)
            let shot = Self.root.appendingPathComponent(".build/test-output/long-title-iphone.png").path
            try FileManager.default.createDirectory(atPath: (shot as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let url = "http://links.example.com:\(service.port)/long"
            let browser = try Subprocess("/usr/bin/python3", [Self.script, url, "links.example.com", "{}", shot], mergeErrors: true)
            let status = try browser.wait(timeout: 180)
            #expect(status == 0, "\(browser.standardOutput.suffix(3000))")
        }
    }
}
