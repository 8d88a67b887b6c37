import Foundation
@testable import LinkService
import Testing
import TestSupport

/// The whole single sign-on in a real browser (Debian's headless Chromium through chromium-driver and
/// python3-selenium, `Browser/sso_sign_in.py`) against the Authlib provider showing its login form: linkd's
/// start, the provider's form, the callback, the console with an `HttpOnly` session cookie that is a live
/// session of the person added.
@Suite("Single sign-on in a browser")
struct BrowserSSOTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Browser/sso_sign_in.py").path

    @Test func aPersonSignsInThroughTheProvidersForm() throws {
        let provider = try OpenIDTestProvider()
        try provider.control(["login_form": true, "alg": "ES256"])
        try TestService.with(configure: SSOTesting.configure) { service in
            try SSOTesting.setUp(service, provider, extra: #","allowedDomains":["example.com"],"defaultRole":"editor""#)
            let start = "http://127.0.0.1:\(service.port)/v1/sso/start?workspace=acme"
            // Debian's python3, which python3-selenium is installed for (a python3 earlier on PATH may lack it).
            let browser = try Subprocess("/usr/bin/python3", [Self.script, start, "grace@example.com"], mergeErrors: true)
            let status = try browser.wait(timeout: 180)
            #expect(status == 0, "\(browser.standardOutput.suffix(3000))")
            let line = browser.standardOutput.split(separator: "\n").first { $0.hasPrefix("cookie linkd_session ") }
            let token = try #require(line.flatMap { SecretToken(presented: $0.split(separator: " ").last ?? "") })
            let session = try service.application.pool.withConnection { try SessionStore.find(token, idle: 600, on: $0) }
            let person = try service.application.pool.withConnection { try PersonStore.find(email: "grace@example.com", on: $0) }
            #expect(session != nil && session?.personID == person?.id)
            #expect(try SSOTesting.role(service, "grace@example.com") == .editor)
        }
    }
}
