import Foundation
import HTTPServer
@testable import LinkService
import Testing
import TestSupport

/// The caching rule of docs/CONNECTIONS.md ("Caching"): every answer of an endpoint declared with a key scope says
/// `Cache-Control: no-store`, errors included, and keeps its ETag; public answers keep their own caching headers.
@Suite("Cache-Control on data")
struct CacheControlRuleTests {
    @Test func everyAuthenticatedRouteAnswersNoStore() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            // Path parameters that name the fixture's rows, so reads answer 200 as well as errors.
            let values = [
                "host": fixture.host, "id": fixture.iosApp, "teamId": "ABCDE12345", "name": "widgetDetail",
                "language": "swift", "n": "1",
            ]
            let authenticated = service.application.endpoints.filter { if case .key = $0.access { true } else { false } }
                // reads first: the rest changes things
                .sorted { ($0.method == .GET ? 0 : 1, $0.path) < ($1.method == .GET ? 0 : 1, $1.path) }
            var succeeded = 0
            for endpoint in authenticated {
                let path = endpoint.path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                    guard segment.hasPrefix("{") else { return String(segment) }
                    return endpoint.method == .GET ? values[String(segment.dropFirst().dropLast()), default: "x"] : "x"
                }.joined(separator: "/")
                let anonymous = try service.request(endpoint.method.rawValue, path)
                #expect(anonymous.status == 401 || endpoint.path == "/v1/resolve", "\(endpoint.method) \(endpoint.path)")
                #expect(
                    anonymous.headers["Cache-Control"] == "no-store",
                    "\(endpoint.method) \(endpoint.path) without a key: \(anonymous.status)")
                let keyed = try service.request(endpoint.method.rawValue, path, key: fixture.key)
                #expect(keyed.headers["Cache-Control"] == "no-store", "\(endpoint.method) \(endpoint.path): \(keyed.status)")
                if (200..<300).contains(keyed.status) { succeeded += 1 }
            }
            #expect(authenticated.count > 60)
            #expect(succeeded > 20, "successes as well as errors")
        }
    }

    @Test func etagsStayAndPublicAnswersKeepTheirCaching() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let team = try service.request("GET", "/v1/teams/ABCDE12345", key: fixture.key)
            #expect(team.headers["Cache-Control"] == "no-store")
            let etag = try #require(team.headers["ETag"])
            let renamed = try service.request(
                "PATCH", "/v1/teams/ABCDE12345", key: fixture.key, json: #"{"name":"Acme 2"}"#,
                headers: [("If-Match", etag)])
            #expect(renamed.status == 200)
            let file = try service.request("GET", "/v1/domains/\(fixture.host)/aasa", key: fixture.key)
            let fileTag = try #require(file.headers["ETag"])
            #expect(
                try service.request(
                    "GET", "/v1/domains/\(fixture.host)/aasa", key: fixture.key,
                    headers: [("If-None-Match", fileTag)]
                ).status == 304)

            let aasa = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host)])
            #expect(aasa.headers["Cache-Control"]?.hasPrefix("public, max-age=") == true)
            let assetLinks = try service.request("GET", "/.well-known/assetlinks.json", headers: [("Host", fixture.host)])
            #expect(assetLinks.headers["Cache-Control"]?.hasPrefix("public, max-age=") == true)
            let document = try service.request("GET", "/openapi.json")
            #expect(document.headers["Cache-Control"] != "no-store")
        }
    }
}
