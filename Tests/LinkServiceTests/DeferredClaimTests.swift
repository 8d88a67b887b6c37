import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Click tokens of landing pages and `POST /v1/deferred/claim` (docs/LANDING.md).
@Suite("Deferred deep links")
struct DeferredClaimTests {
    typealias Agent = LandingTests.Agent

    func claim(_ service: TestService, _ token: String) throws -> TestResponse {
        try service.request(
            "POST", "/v1/deferred/claim", json: #"{"token":"\#(token)"}"#,
            headers: [("User-Agent", "okhttp/4.12.0")])
    }

    /// The token of an Android landing page: the Play Store link's `referrer`, decoded as the app reads it.
    func androidToken(_ service: TestService, _ path: String = "/widget/42?tab=info") throws -> String {
        let html = try LandingTests.click(service, path, agent: Agent.android).text
        let store = try #require(LandingTests.href(html, "get"))
        let referrer = try #require(URLComponents(string: store)?.queryItems?.first { $0.name == "referrer" }?.value)
        #expect(referrer.hasPrefix("linkd_token="))
        return String(referrer.dropFirst("linkd_token=".count))
    }

    func rows(_ service: TestService) throws -> Int {
        service.application.tokens.flush()
        return try service.application.pool.withConnection {
            try $0.query("SELECT count(*)::int8 FROM click_tokens").first!.decode(0, as: Int.self)
        }
    }

    @Test func thePlayReferrerClaimsOnceWithTheResolveAnswer() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service)
            let token = try androidToken(service)
            #expect(ClaimFields.isToken(token))
            // Only the hash is stored.
            service.application.tokens.flush()
            let stored = try service.application.pool.withConnection { connection in
                try connection.query("SELECT token_hash, url, platform FROM click_tokens").map {
                    try $0.decode((String, String, String).self)
                }
            }
            #expect(stored.count == 1)
            #expect(stored.first?.0 == ClickTokens.hash(token) && stored.first?.0 != token)
            #expect(stored.first?.1 == "https://links.example.com/widget/42?tab=info")
            let first = try claim(service, token)
            #expect(first.status == 200)
            let resolve = try service.request(
                "GET", "/v1/resolve?url=https://links.example.com/widget/42%3Ftab%3Dinfo&platform=android&log=false", key: fixture.key)
            let (claimed, resolved) = (try first.json, try resolve.json)
            #expect(claimed == resolved)
            #expect(claimed["destination"]?["type"]?.stringValue == "widgetDetail")
            let second = try claim(service, token)
            #expect(second.status == 410)
            #expect(second.headers["Content-Type"] == "application/problem+json")
            // The claim is a hit of its own.
            #expect(
                eventually {
                    (try? service.application.pool.withConnection { connection in
                        try connection.query("SELECT count(*)::int8 FROM hits WHERE source = 'claim' AND served = 'claim' AND NOT is_bot")
                            .first!.decode(0, as: Int.self)
                    }) == 1
                })
        }
    }

    /// A claim tells the workspace's `deferred.claimed` subscribers the link and the answer, once.
    @Test func aClaimIsToldToSubscribers() throws {
        try TestService.with(configure: WebhookTesting.configure) { service in
            let fixture = try LandingTests.fixture(service)
            let receiver = try WebhookReceiver()
            let webhook = try WebhookTesting.subscribe(service, key: fixture.key, receiver, events: ["deferred.claimed"])
            let token = try androidToken(service)
            #expect(try claim(service, token).status == 200)
            #expect(try claim(service, token).status == 410)
            // A subscription's events go out in order: once a test event queued after the claims arrives, an event
            // of the refused claim would have.
            try Fixture.expect(202, service.request("POST", "/v1/webhooks/\(webhook)/test", key: fixture.key))
            try waitUntil("the test event delivered") { receiver.deliveries.contains { $0.type == "webhook.test" } }
            let told = receiver.deliveries
            #expect(told.map(\.type) == ["deferred.claimed", "webhook.test"], "the refused second claim tells nothing")
            let data = try #require(told.first?.data)
            #expect(told.first?.type == "deferred.claimed" && told.first?.verified == true)
            #expect(data["url"]?.stringValue == "https://links.example.com/widget/42?tab=info")
            #expect(data["platform"]?.stringValue == "android")
            #expect(data["answer"]?["destination"]?["type"]?.stringValue == "widgetDetail")
        }
    }

    @Test func unknownExpiredAndMalformedTokens() throws {
        try TestService.with { service in
            _ = try LandingTests.fixture(service)
            #expect(try claim(service, ClickTokens.generate()).status == 404)
            let token = try androidToken(service)
            service.application.tokens.flush()
            try service.application.pool.withConnection { connection in
                try connection.execute("UPDATE click_tokens SET expires_at = now() - interval '1 minute'")
            }
            let expired = try claim(service, token)
            #expect(expired.status == 410)
            #expect(expired.text.contains("expired"))
            // The background job deletes tokens once they have been expired for the grace period; then it is unknown.
            #expect(try service.application.tokens.deleteExpired() == 0)
            try service.application.pool.withConnection { connection in
                try connection.execute("UPDATE click_tokens SET expires_at = now() - interval '2 hours'")
            }
            #expect(try service.application.tokens.deleteExpired() == 1)
            #expect(try claim(service, token).status == 404)
            for body in [#"{"token":"XYZ"}"#, #"{}"#, #"{"token":42}"#, #"{"token":"\#(token)","more":1}"#] {
                let response = try service.request("POST", "/v1/deferred/claim", json: body)
                #expect(response.status == 422, "\(body)")
            }
        }
    }

    @Test func theIOSClipboardClaimLinkIsOptIn() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service)
            // Without the opt-in: no script, no claim link, no token.
            let plain = try LandingTests.click(service, "/widget/9", agent: Agent.iPhone).text
            #expect(!plain.contains("data-claim"))
            #expect(try rows(service) == 0)
            try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/domains/links.example.com", key: fixture.key,
                    json: #"{"deferredClipboard":true,"deferredTTL":600}"#))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: "links.example.com")?.settings.deferredClipboard == true }
            let page = try LandingTests.click(service, "/widget/9", agent: Agent.iPhone)
            let csp = page.headers["Content-Security-Policy"] ?? ""
            #expect(csp.contains("script-src \(LandingPage.scriptHash)"))
            #expect(page.text.contains("<script>\(LandingPage.script)</script>"))
            #expect(page.text.contains("copies this link"))
            let claimLink = try #require(LandingTests.attribute(page.text, after: "id=\"get\"", "data-claim"))
            #expect(claimLink.hasPrefix("https://links.example.com/_linkd/claim/"))
            let token = String(claimLink.dropFirst("https://links.example.com/_linkd/claim/".count))
            service.application.tokens.flush()
            let expiry = try service.application.pool.withConnection { connection in
                try connection.query("SELECT extract(epoch FROM expires_at - created_at)::int8 FROM click_tokens").first!.decode(
                    0, as: Int.self)
            }
            #expect(expiry == 600)
            #expect(try claim(service, token).status == 200)
        }
    }

    @Test func nothingIsCreatedForBotsDesktopsOrRedirectDomains() throws {
        try TestService.with { service in
            _ = try Fixture(service, domainSettings: ClickTests.redirect)
            _ = try LandingTests.click(service, "/widget/1", agent: Agent.android)
            for agent in LandingTests.Agent.bots + [Agent.chrome] { _ = try LandingTests.click(service, "/widget/1", agent: agent) }
            #expect(try rows(service) == 0)
        }
        try TestService.with { service in
            _ = try LandingTests.fixture(service)
            for agent in LandingTests.Agent.bots + [Agent.chrome, Agent.firefox] {
                _ = try LandingTests.click(service, "/widget/1", agent: agent)
            }
            _ = try service.request("HEAD", "/widget/1", headers: [("Host", "links.example.com"), ("User-Agent", Agent.android)])
            #expect(try rows(service) == 0)
            _ = try LandingTests.click(service, "/widget/1", agent: Agent.android)
            #expect(try rows(service) == 1)
        }
    }
}
