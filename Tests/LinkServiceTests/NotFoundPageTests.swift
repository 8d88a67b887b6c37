import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// A click with nowhere to go (a path no rule claims, on a domain without a web fallback): a browser gets a small
/// 404 page with the domain's name and its apps' store buttons, an API client keeps problem+json
/// (docs/LANDING.md).
@Suite("Not-found page")
struct NotFoundPageTests {
    /// The `Accept` each browser sends on a navigation.
    enum Accept {
        static let safari = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
        static let chrome =
            "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
        static let firefox = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
    }

    static func click(
        _ service: TestService, _ path: String, agent: String, accept: String?, host: String = "links.example.com"
    ) throws -> TestResponse {
        var headers = [("Host", host), ("User-Agent", agent)]
        if let accept { headers.append(("Accept", accept)) }
        return try service.request("GET", path, headers: headers)
    }

    /// The landing fixture without its web fallback.
    static func fixture(_ service: TestService) throws -> Fixture {
        let fixture = try LandingTests.fixture(service)
        try Fixture.expect(
            200, service.request("PATCH", "/v1/domains/links.example.com", key: fixture.key, json: #"{"webFallbackUrl":null}"#))
        try fixture.waitForCatalog { $0.catalog.entry(exactly: "links.example.com")?.settings.webFallbackURL == nil }
        return fixture
    }

    static func expectPage(_ response: TestResponse, host: String = "links.example.com", sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(response.status == 404, sourceLocation: sourceLocation)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8", sourceLocation: sourceLocation)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff", sourceLocation: sourceLocation)
        #expect(response.headers["Referrer-Policy"] == "no-referrer", sourceLocation: sourceLocation)
        #expect(response.headers["Content-Security-Policy"] == LandingPage.policies.plain, sourceLocation: sourceLocation)
        #expect(response.headers["Cache-Control"] == "no-store", sourceLocation: sourceLocation)
        #expect(response.headers["Vary"] == "User-Agent, Accept", sourceLocation: sourceLocation)
        let html = response.text
        #expect(html.hasPrefix("<!doctype html>"), sourceLocation: sourceLocation)
        #expect(html.contains("<title>\(host)</title>"), sourceLocation: sourceLocation)
        #expect(html.contains("<h1>\(host)</h1>"), sourceLocation: sourceLocation)
        #expect(html.contains("There is no page at this address."), sourceLocation: sourceLocation)
        #expect(!html.contains("<script"), sourceLocation: sourceLocation)
        #expect(LandingTests.href(html, "web") == nil, sourceLocation: sourceLocation)
        #expect(LandingTests.href(html, "open") == nil, sourceLocation: sourceLocation)
        #expect(response.body.count < 10_240, sourceLocation: sourceLocation)
    }

    @Test func phonesAndDesktopsGetThePageWithTheirStores() throws {
        try TestService.with { service in
            _ = try Self.fixture(service)
            for path in ["/nothing/here", "/about?from=mail", "/"] {
                let iPhone = try Self.click(service, path, agent: LandingTests.Agent.iPhone, accept: Accept.safari)
                Self.expectPage(iPhone)
                #expect(LandingTests.href(iPhone.text, "get") == LandingTests.appStore, "\(path)")
                #expect(iPhone.text.contains(">Get the app</a>"))
                #expect(LandingTests.href(iPhone.text, "play") == nil)

                let android = try Self.click(service, path, agent: LandingTests.Agent.android, accept: Accept.chrome)
                Self.expectPage(android)
                #expect(LandingTests.href(android.text, "get") == LandingTests.play, "\(path)") // no token: nothing to claim
                #expect(LandingTests.href(android.text, "play") == nil)

                for (agent, accept) in [
                    (LandingTests.Agent.chrome, Accept.chrome), (LandingTests.Agent.firefox, Accept.firefox),
                    (LandingTests.Agent.safari, Accept.safari),
                ] {
                    let desktop = try Self.click(service, path, agent: agent, accept: accept)
                    Self.expectPage(desktop)
                    #expect(LandingTests.href(desktop.text, "get") == LandingTests.appStore, "\(agent)")
                    #expect(desktop.text.contains(">Get the app on the App Store</a>"))
                    #expect(LandingTests.href(desktop.text, "play") == LandingTests.play, "\(agent)")
                }
            }
            // The excluded paths are no page either.
            Self.expectPage(try Self.click(service, "/private/x", agent: LandingTests.Agent.iPhone, accept: Accept.safari))
        }
    }

    @Test func apiClientsKeepProblemJSON() throws {
        try TestService.with { service in
            _ = try Self.fixture(service)
            for accept in [
                nil, "application/json", "application/problem+json", "*/*", "text/*", "text/html;q=0, application/json",
                "text/html; q=0.0",
            ] as [String?] {
                for agent in [LandingTests.Agent.iPhone, LandingTests.Agent.android, LandingTests.Agent.chrome, "curl/8.5.0"] {
                    let response = try Self.click(service, "/nothing/here", agent: agent, accept: accept)
                    #expect(response.status == 404, "\(accept ?? "none") \(agent)")
                    #expect(response.headers["Content-Type"] == "application/problem+json", "\(accept ?? "none") \(agent)")
                    #expect(try response.json["status"] == .number("404"))
                }
            }
            // A browser's Accept in any case, with parameters, is a browser.
            Self.expectPage(try Self.click(service, "/nothing", agent: "curl/8.5.0", accept: "application/json;q=0.5, TEXT/HTML;level=1"))
            // Hosts that are no link domain stay problems.
            let other = try Self.click(
                service, "/nothing", agent: LandingTests.Agent.iPhone, accept: Accept.safari, host: "other.example.com")
            #expect(other.status == 404)
            #expect(other.headers["Content-Type"] == "application/problem+json")
        }
    }

    /// The store buttons are those of the workspace's apps; a workspace without apps gets the page without buttons.
    @Test func aDomainWithoutAppsShowsNoStoreButton() throws {
        try TestService.with { service in
            let fixture = try Self.fixture(service)
            let bare = try service.key(workspace: "bare")
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: bare, json: #"{"hostname":"bare.example.com"}"#))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: "bare.example.com") != nil }
            for (agent, accept) in [
                (LandingTests.Agent.iPhone, Accept.safari), (LandingTests.Agent.android, Accept.chrome),
                (LandingTests.Agent.chrome, Accept.chrome),
            ] {
                let response = try Self.click(service, "/anything", agent: agent, accept: accept, host: "bare.example.com")
                Self.expectPage(response, host: "bare.example.com")
                #expect(!response.text.contains("href="), "\(agent)")
            }
        }
    }
}
