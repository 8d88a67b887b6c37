import Foundation
import HTTPServer
@testable import LinkService
import Testing
import TestSupport

/// The request-id rule of docs/DESIGN.md ("Request ids"): every response carries `X-Request-ID`, except the
/// association files, which carry one only when the fetch offered it.
@Suite("Request ids")
struct RequestIDRuleTests {
    static let associationPaths: Set<String> = [
        "/.well-known/apple-app-site-association", "/apple-app-site-association", "/.well-known/assetlinks.json",
    ]

    @Test func everyRouteAnswersWithARequestIDExceptTheAssociationFiles() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            // Association files first: the walk below also deletes and changes things.
            for path in Self.associationPaths.sorted() {
                let fetched = try service.request("GET", path, headers: [("Host", fixture.host)])
                #expect(fetched.status == 200, "\(path)")
                #expect(fetched.headers["X-Request-ID"] == nil, "\(path) carries no id it was not offered")
                let etag = try #require(fetched.headers["ETag"])
                let unchanged = try service.request("GET", path, headers: [("Host", fixture.host), ("If-None-Match", etag)])
                #expect(unchanged.status == 304, "\(path)")
                #expect(unchanged.headers["X-Request-ID"] == nil, "\(path), 304")
                let offered = try service.request("GET", path, headers: [("Host", fixture.host), ("X-Request-ID", "cdn-1")])
                #expect(offered.headers["X-Request-ID"] == "cdn-1", "\(path) echoes an offered id")
            }
            // Every other route, with each parameter filled in, answers with an id whatever its status.
            var seen = 0
            for route in service.application.router.routes where !Self.associationPaths.contains(route.template) {
                let path = route.template.split(separator: "/", omittingEmptySubsequences: false)
                    .map { $0.hasPrefix("{") ? "x" : String($0) }.joined(separator: "/")
                let response = try service.request(route.method.rawValue, path, key: fixture.key)
                #expect(response.headers["X-Request-ID"]?.count == 32, "\(route.method) \(route.template): \(response.status)")
                seen += 1
            }
            #expect(seen > 20)
            // A click on a link domain and a path no route knows.
            for (host, path) in [(fixture.host, "/widgets/42"), ("localhost", "/nope")] {
                let response = try service.request("GET", path, headers: [("Host", host)])
                #expect(response.headers["X-Request-ID"]?.count == 32, "\(host)\(path): \(response.status)")
            }
        }
    }
}
