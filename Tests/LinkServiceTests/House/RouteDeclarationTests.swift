import Foundation
import HTTPServer
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// What is printed from the route declarations (`Endpoint`) agrees with what the router serves: a new resource's
/// `Location` leads to its own route, the slugs a link may not take are the routes' first segments, every path
/// parameter a route names is a declared `PathParameter`.
@Suite("House: printed from the route declarations")
struct RouteDeclarationTests {
    /// Every endpoint, the console's included (it is off unless configured).
    static func withEndpoints(_ body: (TestService, [Endpoint]) throws -> Void) throws {
        try TestService.with(configure: { configuration in
            configuration.console = .builtIn
            WebhookTesting.configure(&configuration)
        }) { service in try body(service, service.application.endpoints) }
    }

    @Test func reservedSlugsAreTheRoutesFirstSegments() throws {
        try Self.withEndpoints { _, endpoints in
            #expect(endpoints.contains { $0.path.hasPrefix("/console/") }, "the console's routes are declared")
            // The claim links (`https://<domain>/_linkd/claim/<token>`) are the click handler's, not a route's.
            let claim = String(ClickHandler.claimPath.split(separator: "/").first!)
            let served = Set(endpoints.map(\.firstSegment)).union([claim])
            #expect(LinkSlug.reserved == served, "LinkSlug.reserved must be every route's first segment")
            for segment in served {
                #expect(LinkSlug.problem(segment) != nil, "a slug at \(segment) is refused")
                #expect(LinkSlug.problem(segment.uppercased() + "/x") != nil, "in any case, with more segments")
            }
        }
    }

    @Test func everyPathParameterIsDeclared() throws {
        try Self.withEndpoints { _, endpoints in
            let declared = Set(PathParameter.all.map(\.name))
            let named = Set(endpoints.flatMap(\.pathParameterNames))
            #expect(named == declared, "the routes' parameters are PathParameter.all, each used")
        }
    }

    @Test func printingPercentEncodesEachValueWithinItsSegment() {
        #expect(
            Endpoint.printing("/v1/apps/{id}/destinations/{name}", [.id: "a b", .name: "x/y%"])
                == "/v1/apps/a%20b/destinations/x%2Fy%25")
        #expect(Endpoint.printing("/v1/domains/{host}", [.host: "links.example.com"]) == "/v1/domains/links.example.com")
    }

    /// Each resource a `POST` creates is at its `Location`, which is the address clients have always been given, and
    /// a read (a key has none: its revocation) there finds it.
    @Test func everyCreatedResourceIsAtItsLocation() throws {
        try Self.withEndpoints { service, _ in
            let fixture = try Fixture(service)
            let admin = try service.key(workspace: "acme", scope: .admin)
            /// Creates at `path` and reads it back at its `Location`, which must be `location` (given the new id).
            @discardableResult
            func created(_ path: String, _ json: String, key: String? = nil, at location: (String) -> String) throws -> String {
                let response = try Fixture.expect(201, service.request("POST", path, key: key ?? fixture.key, json: json))
                let id = try response.json["id"]?.stringValue ?? ""
                #expect(response.headers["Location"] == location(id), "POST \(path)")
                guard let address = response.headers["Location"] else { return id }
                if path == "/v1/keys" {
                    #expect(try service.request("DELETE", address, key: admin).status == 204, "DELETE \(address)")
                    return id
                }
                let read = try service.request("GET", address, key: admin)
                #expect(read.status == 200, "GET \(address)")
                #expect(read.headers["ETag"] == response.headers["ETag"], "GET \(address)")
                return id
            }

            try created("/v1/teams", #"{"teamId":"FGHIJ67890","name":"Other"}"#) { _ in "/v1/teams/FGHIJ67890" }
            let gadgets = #"{"platform":"ios","name":"Gadgets","teamId":"FGHIJ67890","bundleId":"com.example.gadgets"}"#
            let app = try created("/v1/apps", gadgets) { "/v1/apps/\($0)" }
            try created("/v1/apps/\(app)/destinations", #"{"name":"gadget","params":{"id":{"type":"int"}}}"#) { _ in
                "/v1/apps/\(app)/destinations/gadget"
            }
            try created("/v1/domains", #"{"hostname":"go.example.com"}"#) { _ in "/v1/domains/go.example.com" }
            try created("/v1/domains/go.example.com/rules", #"{"apps":["\#(app)"],"path":"/g/{id}","destination":{"type":"gadget"}}"#) {
                "/v1/domains/go.example.com/rules/\($0)"
            }
            let link = #"{"domain":"\#(fixture.host)","slug":"spring","url":"https://www.example.com/s"}"#
            try created("/v1/links", link) { "/v1/links/\($0)" }
            let webhook = #"{"url":"http://127.0.0.1:9/hooks","events":["link.created"]}"#
            try created("/v1/webhooks", webhook, key: admin) { "/v1/webhooks/\($0)" }
            try created("/v1/keys", #"{"name":"ci","scope":"read"}"#, key: admin) { "/v1/keys/\($0)" }
        }
    }
}
