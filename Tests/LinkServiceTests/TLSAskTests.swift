import Foundation
@testable import LinkService
import Testing
import TestSupport

/// `/v1/tls/ask`, what Caddy's on-demand TLS asks before it requests a certificate.
@Suite("TLS ask")
struct TLSAskTests {
    @Test func allowsTheNamesLinkdServesAndNothingElse() throws {
        try TestService.with(configure: { $0.apiHostname = "api.example.net" }) { service in
            let fixture = try Fixture(service, host: "links.example.com")
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"*.example.org"}"#))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: "*.example.org") != nil }
            for allowed in [
                "links.example.com", "LINKS.example.com.", "example.org", "a.example.org", "b.a.example.org", "api.example.net",
            ] {
                let answer = try service.request("GET", "/v1/tls/ask?domain=\(allowed)")
                #expect(answer.status == 200, "\(allowed)")
                #expect(answer.headers["Content-Type"]?.hasPrefix("application/json") == true)
            }
            #expect(try service.request("GET", "/v1/tls/ask?domain=links.example.com").text == #"{"domain":"links.example.com"}"#)
            for refused in ["other.example.com", "example.com", "x.links.example.com", "*.example.org", "example.net", "127.0.0.1", "%20"] {
                let answer = try service.request("GET", "/v1/tls/ask?domain=\(refused)")
                #expect(answer.status == 404, "\(refused)")
                #expect(answer.headers["Content-Type"] == "application/problem+json", "\(refused)")
            }
            for missing in ["/v1/tls/ask", "/v1/tls/ask?domain=", "/v1/tls/ask?host=links.example.com"] {
                #expect(try service.request("GET", missing).status == 400, "\(missing)")
            }
            // A deleted domain is refused at once (the catalog, not the database, answers).
            try Fixture.expect(204, service.request("DELETE", "/v1/domains/links.example.com", key: fixture.key))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: "links.example.com") == nil }
            #expect(try service.request("GET", "/v1/tls/ask?domain=links.example.com").status == 404)
        }
    }

    @Test func withoutAnAPIHostnameOnlyLinkDomainsAreAllowed() throws {
        try TestService.with { service in
            let answer = try service.request("GET", "/v1/tls/ask?domain=api.example.net")
            #expect(answer.status == 404)
        }
    }
}
