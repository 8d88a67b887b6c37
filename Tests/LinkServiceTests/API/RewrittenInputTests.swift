import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Input that was silently rewritten or passed into headers (issue 27, items 5 and 8) is refused, and what was
/// asked is echoed as asked.
@Suite("Input refused rather than rewritten")
struct RewrittenInputTests {
    /// CR and LF in a URL ended the `Location` header of every redirect on the domain (a 302 without `Location`,
    /// the raw value echoed in the body); every URL field refuses them, and every control character, with a pointer.
    @Test func urlFieldsRefuseControlCharacters() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, domainSettings: ClickTests.redirect)
            let (ios, android, host) = (fixture.iosApp, fixture.androidApp, fixture.host)
            for bad in [
                #"https://www.example.com/\r\n<script>alert(1)</script>"#, #"https://www.example.com/\n"#,
                #"https://www.example.com/\u007f"#, #"https://www.example.com/\u0085"#, #"https://www.example.com/a b"#,
            ] {
                try fixture.expectRefused("PATCH", "/v1/domains/\(host)", #"{"webFallbackUrl":"\#(bad)"}"#, pointers: ["/webFallbackUrl"])
                try fixture.expectRefused(
                    "POST", "/v1/domains", #"{"hostname":"crlf.example.com","webFallbackUrl":"\#(bad)"}"#, pointers: ["/webFallbackUrl"])
                try fixture.expectRefused("PATCH", "/v1/apps/\(android)", #"{"playStoreUrl":"\#(bad)"}"#, pointers: ["/playStoreUrl"])
                try fixture.expectRefused(
                    "POST", "/v1/apps/\(ios)/destinations", #"{"name":"card","title":"Card","imageUrl":"\#(bad)"}"#,
                    pointers: ["/imageUrl"])
                try fixture.expectRefused(
                    "PUT", "/v1/domains/\(host)/rules",
                    #"{"rules":[{"apps":["\#(ios)"],"path":"/a","click":{"imageUrl":"\#(bad)"}}]}"#,
                    pointers: ["/rules/0/click/imageUrl"])
            }
            // The redirects keep their Location, and the page its nosniff.
            let click = try service.request("GET", "/about", headers: [("Host", host), ("User-Agent", ClickTests.desktop)])
            #expect(click.status == 302)
            #expect(click.headers["Location"] == "https://www.example.com/about")
            #expect(click.headers["X-Content-Type-Options"] == "nosniff")
        }
    }

    /// A lone surrogate escape became U+FFFD and was stored, while raw invalid UTF-8 was a 400: both are 400 now.
    @Test func loneSurrogatesAreMalformedJSON() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let before = try fixture.auditCount()
            for name in [#"a\ud800"#, #"\udc00b"#, #"\ud800\u0041"#, #"\ud800\ud800"#] {
                let response = try service.request(
                    "POST", "/v1/teams", key: fixture.key, json: #"{"teamId":"SURR000001","name":"\#(name)"}"#)
                #expect(response.status == 400, "\(name): \(response.text)")
                #expect(response.headers["Content-Type"] == "application/problem+json")
                #expect(response.text.contains("surrogate"), "\(response.text)")
            }
            #expect(try fixture.auditCount() == before)
            // A whole pair is one character, stored as such.
            let team = try Fixture.expect(
                201, service.request("POST", "/v1/teams", key: fixture.key, json: #"{"teamId":"SURR000002","name":"\ud83d\ude00"}"#))
            #expect(try team.json["name"]?.stringValue == "\u{1F600}")
        }
    }

    @Test func twoAuthorizationHeadersAreRefused() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            for second in ["Bearer \(fixture.key)", "Bearer nope"] {
                let response = try service.request("GET", "/v1/teams", key: fixture.key, headers: [("Authorization", second)])
                #expect(response.status == 400, "\(response.text)")
                #expect(response.text.contains("Authorization"))
            }
            #expect(try service.request("GET", "/v1/teams", key: fixture.key).status == 200)
        }
    }

    @Test func analyticsTimesAreRefusedWhenOutOfRangeAndTheZoneEchoedAsAsked() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            for from in [
                "2026-11-20T25:00:00Z", "2026-11-20T23:60:00Z", "2026-11-20T23:00:61Z", "2026-02-30T00:00:00Z",
                "2026-13-01T00:00:00Z", "2026-11-20T10:00:00+24:00", "2026-11-20T10:00:00",
            ] {
                let response = try service.request("GET", "/v1/analytics/summary?from=\(from)&to=2026-11-22", key: fixture.key)
                #expect(response.status == 400, "\(from): \(response.text)")
                #expect(response.text.contains("from"))
            }
            for (tz, echoed) in [("UTC", "UTC"), ("GMT", "GMT"), ("Europe/Paris", "Europe/Paris")] {
                let response = try Fixture.expect(
                    200,
                    service.request(
                        "GET", "/v1/analytics/summary?from=2026-11-20T09:00:00.5%2B01:00&to=2026-11-21&tz=\(tz)", key: fixture.key))
                #expect(try response.json["timeZone"]?.stringValue == echoed)
            }
        }
    }
}
