import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

@Suite("Resolve")
struct ResolveTests {
    func resolve(_ fixture: Fixture, _ url: String, platform: String? = nil) throws -> JSONValue {
        var target = "/v1/resolve?url=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        if let platform { target += "&platform=\(platform)" }
        let response = try fixture.service.request("GET", target, key: fixture.key)
        #expect(response.status == 200, "\(response.text)")
        return try response.json
    }

    @Test func openAppWithATypedDestination() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let answer = try resolve(fixture, "https://links.example.com/widget/42?tab=reviews")
            #expect(answer["outcome"] == .string("open_app"))
            #expect(answer["app"]?["appId"] == .string("ABCDE12345.com.example.widgets"))
            #expect(answer["app"]?["id"] == .string(fixture.iosApp))
            #expect(answer["rule"]?["position"] == .number("1"))
            #expect(answer["destination"]?.serialized == #"{"type":"widgetDetail","params":{"id":42}}"#)
            let rules = try service.request("GET", "/v1/domains/\(fixture.host)/rules", key: fixture.key).json["items"]?.arrayValue
            #expect(answer["rule"]?["id"] == rules?[1]["id"])
        }
    }

    @Test func capturesFromSeveralSegments() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let answer = try resolve(fixture, "https://links.example.com/w/7/info")
            #expect(answer["destination"]?.serialized == #"{"type":"widgetDetail","params":{"id":7,"tab":"info"}}"#)
        }
    }

    @Test(
        "invalid parameters give an explicit error destination",
        arguments: [
            ("https://links.example.com/widget/abc", "id"),
            ("https://links.example.com/widget/0", "id"),
            ("https://links.example.com/w/7/settings", "tab"),
        ])
    func invalidParams(url: String, param: String) throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let answer = try resolve(fixture, url)
            #expect(answer["outcome"] == .string("invalid_param"))
            #expect(answer["app"]?["appId"] == .string("ABCDE12345.com.example.widgets"), "the app still opens")
            #expect(answer["destination"]?["error"]?["code"] == .string("invalid_param"))
            #expect(answer["destination"]?["error"]?["param"] == .string(param))
        }
    }

    @Test func excludedNoMatchAndFallbacks() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let excluded = try resolve(fixture, "https://links.example.com/private/x")
            #expect(excluded["outcome"] == .string("excluded"))
            #expect(excluded["rule"]?["position"] == .number("0"))
            #expect(excluded["destination"] == nil)
            let none = try resolve(fixture, "https://links.example.com/about?x=1")
            #expect(none["outcome"] == .string("no_match"))
            #expect(none["app"] == nil)
            #expect(none["fallbacks"]?["web"] == .string("https://www.example.com/about?x=1"))
            #expect(none["fallbacks"]?["appStore"] == .string("https://apps.apple.com/app/id1234567890"))
        }
    }

    /// Universal links are https URLs, and linkd claims no URL with `user:password@` (docs/DESIGN.md): the rules
    /// are not asked, the answer says why.
    @Test(
        "URLs that cannot be universal links are no_match with a reason",
        arguments: [
            ("http://links.example.com/widget/42", "not_https"),
            ("HTTP://links.example.com/widget/42", "not_https"),
            ("https://user:secret@links.example.com/widget/42", "user_info"),
            ("https://user@links.example.com/widget/42", "user_info"),
        ])
    func notUniversalLinks(url: String, reason: String) throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let answer = try resolve(fixture, url)
            #expect(answer["outcome"] == .string("no_match"))
            #expect(answer["reason"] == .string(reason))
            #expect(answer["app"] == nil && answer["rule"] == nil && answer["destination"] == nil)
            #expect(answer["domain"] == .string(fixture.host))
            #expect(answer["fallbacks"]?["web"] == .string("https://www.example.com/widget/42"))
            let batch = try Fixture.expect(200, service.request("POST", "/v1/resolve", key: fixture.key, json: #"{"urls":["\#(url)"]}"#))
            #expect(try batch.json["results"]?.arrayValue?.first?["reason"] == .string(reason))
            // The same link over https is a universal link, and its answer has no reason.
            let https = try resolve(fixture, "https://links.example.com/widget/42")
            #expect(https["outcome"] == .string("open_app") && https["reason"] == nil)
        }
    }

    @Test func androidResolvesThroughTheSameRules() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let answer = try resolve(fixture, "https://links.example.com/widget/5", platform: "android")
            #expect(answer["app"]?["packageName"] == .string("com.example.widgets"))
            #expect(answer["destination"]?.serialized == #"{"type":"widgetDetail","params":{"id":5}}"#)
            // The third rule names only the iOS app.
            #expect(try resolve(fixture, "https://links.example.com/w/5/info", platform: "android")["outcome"] == .string("no_match"))
        }
    }

    @Test func anotherWorkspacesDomainIsUnknown() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let other = try service.key(workspace: "other")
            let response = try service.request("GET", "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2Fwidget%2F1", key: other)
            #expect(try response.json["outcome"] == .string("unknown_domain"))
            #expect(try response.json["app"] == nil)
            #expect(try resolve(fixture, "https://nowhere.example.net/x")["outcome"] == .string("unknown_domain"))
        }
    }

    @Test func keptAnswersFollowRuleChangesOnThisNodeAndTheOtherForResolveAndClicks() throws {
        try TestService.with { first in
            let fixture = try Fixture(first, domainSettings: ClickTests.redirect)
            let second = try TestService(parameters: first.database!.parameters)
            defer { second.close() }
            let url = "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2Fkept%2F7"
            func outcome(_ service: TestService, key: String? = nil) throws -> JSONValue? {
                try service.request("GET", url, key: key ?? fixture.key).json["outcome"]
            }
            // Asked twice on each node: the second answer comes from the cache and is the same.
            for service in [first, second] {
                #expect(try outcome(service) == .string("no_match"))
                #expect(try outcome(service) == .string("no_match"))
            }
            // Kept per workspace: another workspace's key is not answered from the first workspace's entry.
            #expect(try outcome(first, key: first.key(workspace: "other")) == .string("unknown_domain"))
            // Clicks ask the same cache: no app claims the link yet, so an iPhone goes to the web.
            func click(_ service: TestService) throws -> String? {
                try service.request("GET", "/kept/7", headers: [("Host", "links.example.com"), ("User-Agent", ClickTests.iPhone)]).headers[
                    "Location"]
            }
            for service in [first, second] {
                #expect(try click(service) == "https://www.example.com/kept/7")
                #expect(try click(service) == "https://www.example.com/kept/7")
            }
            try Fixture.expect(
                201,
                first.request(
                    "POST", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                    json: #"{"apps":["\#(fixture.iosApp)"],"path":"/kept/*","position":0}"#))
            for service in [first, second] {
                #expect(try eventually { try outcome(service) == .string("open_app") }, "port \(service.port)") // NOTIFY
                #expect(try click(service) == "https://apps.apple.com/app/id1234567890", "port \(service.port)")
            }
        }
    }

    @Test func batchResolve() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let response = try service.request(
                "POST", "/v1/resolve", key: fixture.key,
                json: """
                    {"urls":["https://links.example.com/widget/1","https://links.example.com/nope"],"platform":"ios"}
                    """)
            #expect(response.status == 200)
            let results = try #require(try response.json["results"]?.arrayValue)
            #expect(results.map { $0["outcome"] } == [.string("open_app"), .string("no_match")])
            let tooMany = "{\"urls\":[" + Array(repeating: "\"https://links.example.com/\"", count: 1001).joined(separator: ",") + "]}"
            #expect(try service.request("POST", "/v1/resolve", key: fixture.key, json: tooMany).status == 422)
        }
    }

    @Test(
        "bad input is a 4xx problem",
        arguments: [
            "/v1/resolve", "/v1/resolve?url=", "/v1/resolve?url=not%20a%20url", "/v1/resolve?url=javascript%3Aalert(1)",
            "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2F&platform=windows", "/v1/resolve?url=https%3A%2F%2Fa%2F&log=maybe",
        ])
    func badInput(path: String) throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let response = try service.request("GET", path, key: fixture.key)
            #expect(response.status == 400, "\(response.text)")
            #expect(response.headers["Content-Type"]?.hasPrefix("application/problem+json") == true)
        }
    }

    @Test func publicResolveAnswersWithoutAKeyAndTheMaxAgeIsConfigurable() throws {
        let service = try TestService { configuration in
            configuration.publicResolve = true
            configuration.associationMaxAge = 60
        }
        defer { service.close() }
        _ = try Fixture(service)
        let anonymous = try service.request("GET", "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2Fwidget%2F9")
        #expect(anonymous.status == 200)
        #expect(try anonymous.json["destination"]?.serialized == #"{"type":"widgetDetail","params":{"id":9}}"#)
        // A key still scopes the answer to its workspace; a bad key is still refused.
        let other = try service.key(workspace: "other")
        #expect(
            try service.request("GET", "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2Fwidget%2F9", key: other).json["outcome"]
                == .string("unknown_domain"))
        #expect(try service.request("GET", "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2F", key: "nope").status == 401)
        let file = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "links.example.com")])
        #expect(file.headers["Cache-Control"] == "public, max-age=60")
    }

    @Test func resolveNeedsAKey() throws {
        try TestService.with { service in
            _ = try Fixture(service)
            #expect(try service.request("GET", "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2F").status == 401)
        }
    }

    @Test("resolve agrees with iOS's reading of the served file (linkd aasa decide)")
    func agreesWithAASADecide() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let aasa = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host)]).text
            let urls = [
                "https://links.example.com/widget/42", "https://links.example.com/widget/42/", "https://links.example.com/widget/",
                "https://links.example.com/private", "https://links.example.com/private/a/b", "https://links.example.com/w/1/info",
                "https://links.example.com/w/1", "https://links.example.com/Widget/1", "https://links.example.com/widget/1?tab=",
                "https://links.example.com/", "https://links.example.com/widget/%41", "https://links.example.com/x#/widget/1",
            ]
            var input = ""
            for (index, url) in urls.enumerated() {
                input +=
                    #"{"id":\#(index),"aasa":\#(aasa),"domain":"links.example.com","appId":"ABCDE12345.com.example.widgets","url":"\#(url)"}"#
                    + "\n"
            }
            let lines = try LinkdProcess.run(["aasa", "decide"], input: input).stdout.split(separator: "\n")
            #expect(lines.count == urls.count)
            for (index, line) in lines.enumerated() {
                let decision = try JSONValue.parse(String(line))
                let answer = try resolve(fixture, urls[index])
                let opens = answer["outcome"] == .string("open_app") || answer["outcome"] == .string("invalid_param")
                #expect(opens == (decision["decision"] == .string("match")), "\(urls[index])")
                #expect((answer["outcome"] == .string("excluded")) == (decision["decision"] == .string("exclude")), "\(urls[index])")
            }
        }
    }
}
