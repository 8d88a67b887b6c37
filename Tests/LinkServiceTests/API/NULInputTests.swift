import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// NUL characters, which PostgreSQL refuses in `text` and `jsonb`, are answered 4xx at the edge with a pointer or
/// the parameter's name, and change nothing.
@Suite("NUL in request input")
struct NULInputTests {
    @Test func nulInAnyJSONStringIs422WithItsPointer() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let (ios, android, host) = (fixture.iosApp, fixture.androidApp, fixture.host)
            let cases: [(String, String, String, [String])] = [
                ("POST", "/v1/teams", #"{"teamId":"NUL0000002","name":"a\u0000b"}"#, ["/name"]),
                ("PATCH", "/v1/teams/ABCDE12345", #"{"name":"\u0000"}"#, ["/name"]),
                ("POST", "/v1/keys", #"{"name":"k\u0000","scope":"read"}"#, ["/name"]),
                ("POST", "/v1/apps", #"{"platform":"ios","name":"W\u0000","teamId":"ABCDE12345","bundleId":"com.example.nul"}"#, ["/name"]),
                ("PATCH", "/v1/apps/\(ios)", #"{"customScheme":"my\u0000app","appStoreId":"1\u00002"}"#, ["/customScheme", "/appStoreId"]),
                (
                    "POST", "/v1/apps",
                    """
                    {"platform":"android","name":"A","packageName":"com.example.nul",
                     "sha256CertFingerprints":[{"value":"\(Fixture.fingerprint)","label":"x\\u0000"}]}
                    """, ["/sha256CertFingerprints/0/label"]
                ),
                (
                    "POST", "/v1/apps/\(android)/destinations",
                    #"{"name":"d","title":"t\u0000","params":{"p":{"type":"enum","values":["a","b\u0000"]},"q\u0000":{"type":"int"}}}"#,
                    ["/title", "/params/p/values/1", "/params/q\u{0}"]
                ),
                (
                    "POST", "/v1/domains", #"{"hostname":"nul.example.com","substitutionVariables":{"v":["x\u0000"]}}"#,
                    ["/substitutionVariables/v/0"]
                ),
                ("PATCH", "/v1/domains/\(host)", #"{"webFallbackUrl":"https://www.example.com/\u0000"}"#, ["/webFallbackUrl"]),
                (
                    "POST", "/v1/domains/\(host)/rules",
                    """
                    {"apps":["\(ios)"],"path":"/a\\u0000","comment":"c\\u0000","query":{"k":"v\\u0000"},
                     "destination":{"type":"widgetDetail","params":{"id":"\\u0000"}}}
                    """, ["/path", "/comment", "/query/k", "/destination/params/id"]
                ),
                ("PUT", "/v1/domains/\(host)/rules", #"{"rules":[{"apps":["\#(ios)"],"fragment":"\u0000"}]}"#, ["/rules/0/fragment"]),
                ("POST", "/v1/domains/\(host)/preview", #"{"rules":[{"apps":["\#(ios)"],"path":"/\u0000"}]}"#, ["/rules/0/path"]),
                ("POST", "/v1/resolve", #"{"urls":["https://\#(host)/\u0000"]}"#, ["/urls/0"]),
            ]
            for (method, path, body, pointers) in cases {
                try fixture.expectRefused(method, path, body, pointers: pointers)
            }
            // An escaped backslash before `u0000` is no NUL.
            #expect(
                try service.request("POST", "/v1/teams", key: fixture.key, json: #"{"teamId":"NUL0000003","name":"a\\u0000"}"#).status
                    == 201)
        }
    }

    @Test func nulInPathOrQueryIs400NamingTheParameter() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let cases: [(String, String)] = [
                ("/v1/teams/AB%00", "teamId"),
                ("/v1/teams/ABCDE12345%00", "teamId"),
                ("/v1/apps/%00", "id"),
                ("/v1/domains/\(fixture.host)%00/rules", "host"),
                ("/v1/apps/\(fixture.iosApp)/destinations/widgetDetail%00", "name"),
                ("/v1/teams?cursor=%00", "cursor"),
                ("/v1/audit?resourceType=team%00", "resourceType"),
                ("/v1/analytics/summary?host=%00", "host"),
                ("/v1/resolve?url=https://\(fixture.host)/widget/1%00", "url"),
            ]
            for (path, name) in cases {
                let response = try service.request("GET", path, key: fixture.key)
                #expect(response.status == 400, "\(path): \(response.text)")
                #expect(response.headers["Content-Type"] == "application/problem+json")
                #expect(try response.json["detail"]?.stringValue?.contains("'\(name)'") == true, "\(path): \(response.text)")
            }
        }
    }
}
