import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

@Suite("Association files for CDNs")
struct AssociationServingTests {
    @Test func aasaIsServedWithCachingHeaders() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let response = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "links.example.com")])
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.headers["Cache-Control"] == "public, max-age=3600")
            #expect(response.headers["Last-Modified"]?.hasSuffix("GMT") == true)
            let etag = try #require(response.headers["ETag"])
            #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
            let file = try AASAFile.decode(response.text)
            #expect(file.applinks?.details.first?.appIDs == ["ABCDE12345.com.example.widgets"])
            #expect(response.text == service.application.catalog.entry(exactly: fixture.host)?.compiled.aasaJSON)
            #expect(AASALinter.lint(text: response.text).filter { $0.severity == .error }.isEmpty)
            // Made once per version and sent as is: the same headers every time, no request id unless offered.
            #expect(response.headers["X-Request-ID"] == nil)
            let again = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "links.example.com")])
            for name in ["ETag", "Last-Modified", "Cache-Control", "Content-Type", "Content-Length"] {
                #expect(again.headers[name] == response.headers[name])
            }
            #expect(again.body == response.body)
            let offered = try service.request(
                "GET", "/.well-known/apple-app-site-association",
                headers: [("Host", "links.example.com"), ("X-Request-ID", "cdn-42")])
            #expect(offered.headers["X-Request-ID"] == "cdn-42")
            #expect(offered.body == response.body)
            #expect(offered.headers["ETag"] == etag)
        }
    }

    @Test func theLastFetchIsShownOnTheDomain() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let response = try service.request(
                "GET", "/.well-known/apple-app-site-association",
                headers: [("Host", fixture.host), ("User-Agent", "AASA-Bot/1.0.0")])
            var lastFetch: JSONValue?
            try waitUntil("the fetch logged on the domain") {
                lastFetch = try service.request("GET", "/v1/domains/\(fixture.host)", key: fixture.key).json["lastFetch"]?[
                    "apple-app-site-association"]
                return lastFetch != nil
            }
            #expect(lastFetch?["userAgent"] == .string("AASA-Bot/1.0.0"))
            #expect(lastFetch?["etag"] == response.headers["ETag"].map(JSONValue.string))
            #expect(lastFetch?["status"] == .number("200"))
        }
    }

    @Test func theRootLocationHostCaseAndPortAreAccepted() throws {
        try TestService.with { service in
            _ = try Fixture(service)
            let wellKnown = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "links.example.com")])
            for (path, host) in [
                ("/apple-app-site-association", "links.example.com"), ("/.well-known/apple-app-site-association", "LINKS.Example.COM:8443"),
            ] {
                let response = try service.request("GET", path, headers: [("Host", host)])
                #expect(response.status == 200)
                #expect(response.body == wellKnown.body)
            }
        }
    }

    @Test func conditionalRequestsAnswer304() throws {
        try TestService.with { service in
            _ = try Fixture(service)
            let host = ("Host", "links.example.com")
            let first = try service.request("GET", "/.well-known/apple-app-site-association", headers: [host])
            let etag = try #require(first.headers["ETag"])
            let lastModified = try #require(first.headers["Last-Modified"])
            let byTag = try service.request(
                "GET", "/.well-known/apple-app-site-association", headers: [host, ("If-None-Match", "\"other\", \(etag)")])
            #expect(byTag.status == 304)
            #expect(byTag.body.isEmpty)
            #expect(byTag.headers["ETag"] == etag)
            let byDate = try service.request(
                "GET", "/.well-known/apple-app-site-association", headers: [host, ("If-Modified-Since", lastModified)])
            #expect(byDate.status == 304)
            let stale = try service.request(
                "GET", "/.well-known/apple-app-site-association", headers: [host, ("If-None-Match", "\"other\"")])
            #expect(stale.status == 200)
            #expect(stale.body == first.body)
        }
    }

    @Test func headAnswersWithoutBody() throws {
        try TestService.with { service in
            _ = try Fixture(service)
            let get = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "links.example.com")])
            let head = try service.request("HEAD", "/.well-known/apple-app-site-association", headers: [("Host", "links.example.com")])
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.headers["Content-Length"] == String(get.body.count))
            #expect(head.headers["ETag"] == get.headers["ETag"])
        }
    }

    @Test func unknownHostsAre404NeverRedirects() throws {
        try TestService.with { service in
            _ = try Fixture(service)
            for host in ["unknown.example.com", "example.com", ""] {
                let response = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", host)])
                #expect(response.status == 404, "\(host)")
                #expect(response.headers["Location"] == nil)
            }
        }
    }

    @Test func assetLinksListTheAndroidApp() throws {
        try TestService.with { service in
            _ = try Fixture(service)
            let response = try service.request("GET", "/.well-known/assetlinks.json", headers: [("Host", "links.example.com")])
            #expect(response.status == 200)
            #expect(response.headers["Content-Type"] == "application/json")
            let statements = try #require(try response.json.arrayValue)
            #expect(statements.first?["target"]?["package_name"]?.stringValue == "com.example.widgets")
            #expect(statements.first?["target"]?["sha256_cert_fingerprints"]?.arrayValue == [.string(Fixture.fingerprint)])
            let report = AssetLinksLinter.lint(text: response.text)
            #expect(report.filter { $0.severity == .error }.isEmpty)
        }
    }

    @Test func aWildcardDomainsFileIsServedAtItsRoot() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, host: "*.example.org")
            let response = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "example.org")])
            #expect(response.status == 200)
            // The served file governs URLs on the root and on every subdomain, and resolve agrees.
            for url in ["https://example.org/widget/1", "https://a.example.org/widget/1", "https://b.a.example.org/widget/1"] {
                let encoded = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let answer = try service.request("GET", "/v1/resolve?url=\(encoded)", key: fixture.key).json
                #expect(answer["outcome"] == .string("open_app"), "\(url)")
                #expect(answer["domain"] == .string("*.example.org"), "\(url)")
            }
            #expect(
                try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "a.example.org")]).status == 404)
        }
    }

    @Test func theSameConfigurationGivesTheSameBytesAndETag() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let before = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host)])
            // Reading the rules back and PUTting them unchanged regenerates the file.
            let rules = try service.request("GET", "/v1/domains/\(fixture.host)/rules", key: fixture.key)
            let items = try #require(try rules.json["items"])
            try Fixture.expect(
                200,
                service.request(
                    "PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                    json: JSONValue.object(["rules": items]).serialized))
            try fixture.waitForCatalog { _ in true }
            try service.waitForChangeFeed() // its own notification heard too: nothing rebuilds the file after this
            let after = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host)])
            #expect(after.body == before.body)
            #expect(after.headers["ETag"] == before.headers["ETag"])
        }
    }

    @Test func aRuleChangeReachesTheServedFile() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                    json: #"{"apps":["\#(fixture.iosApp)"],"path":"/new/*","position":0}"#))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: fixture.host)?.compiled.aasaJSON.contains("/new/*") == true }
            let response = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host)])
            #expect(response.text.contains(#"{"/":"/new/*"}"#))
        }
    }
}
