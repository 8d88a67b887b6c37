import Foundation
import HTTPServer
@testable import LinkService
import Testing
import TestSupport

@Suite("CORS")
struct CORSMiddlewareTests {
    static let dashboard = "https://dash.example.com"

    static func accessControlHeaders(_ response: TestResponse) -> [String] {
        response.headers.map(\.name).filter { $0.lowercased().hasPrefix("access-control-") }
    }

    @Test func preflightFromAnAllowedOrigin() throws {
        try TestService.with(configure: { $0.corsOrigins = [Self.dashboard, "http://localhost:3000"] }) { service in
            let response = try service.request(
                "OPTIONS", "/v1/teams/ABCDE12345",
                headers: [
                    ("Origin", Self.dashboard), ("Access-Control-Request-Method", "PATCH"),
                    ("Access-Control-Request-Headers", "authorization, content-type, if-match"),
                ])
            #expect(response.status == 204)
            #expect(response.headers["Access-Control-Allow-Origin"] == Self.dashboard)
            #expect(response.headers["Access-Control-Allow-Methods"] == "DELETE, GET, HEAD, OPTIONS, PATCH")
            #expect(
                response.headers["Access-Control-Allow-Headers"] == "Authorization, Content-Type, If-Match, If-None-Match, X-Request-ID")
            #expect(response.headers["Access-Control-Max-Age"] == "600")
            #expect(response.headers["Access-Control-Allow-Credentials"] == nil, "no cookie authentication: never credentials")
            #expect(response.headers["Vary"] == "Origin")
            #expect(response.body.isEmpty)

            // The methods are the path's own.
            let collection = try service.request(
                "OPTIONS", "/v1/teams", headers: [("Origin", "http://localhost:3000"), ("Access-Control-Request-Method", "POST")])
            #expect(collection.status == 204)
            #expect(collection.headers["Access-Control-Allow-Origin"] == "http://localhost:3000")
            #expect(collection.headers["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS, POST")
        }
    }

    @Test func preflightFromAnotherOriginGetsNoCORSHeaders() throws {
        try TestService.with(configure: { $0.corsOrigins = [Self.dashboard] }) { service in
            for origin in ["https://evil.example", "https://dash.example.com.evil.example", "http://dash.example.com", "null"] {
                let response = try service.request(
                    "OPTIONS", "/v1/teams", headers: [("Origin", origin), ("Access-Control-Request-Method", "POST")])
                #expect(Self.accessControlHeaders(response).isEmpty, "\(origin)")
                #expect(response.headers["Vary"] == "Origin")
            }
        }
    }

    @Test func actualResponsesCarryTheOriginAndExposedHeaders() throws {
        try TestService.with(configure: { $0.corsOrigins = [Self.dashboard] }) { service in
            let key = try service.key()
            let created = try service.request(
                "POST", "/v1/teams", key: key, json: #"{"teamId":"ABCDE12345","name":"Acme"}"#,
                headers: [("Origin", Self.dashboard)])
            #expect(created.status == 201)
            #expect(created.headers["Access-Control-Allow-Origin"] == Self.dashboard)
            #expect(created.headers["Access-Control-Expose-Headers"] == "ETag, Location, Link, X-Request-ID")
            #expect(created.headers["Access-Control-Allow-Credentials"] == nil)
            #expect(created.headers["Access-Control-Allow-Methods"] == nil)
            #expect(created.headers["Vary"] == "Origin")
            #expect(created.headers["ETag"] != nil)

            let other = try service.request("GET", "/v1/teams", key: key, headers: [("Origin", "https://evil.example")])
            #expect(other.status == 200)
            #expect(Self.accessControlHeaders(other).isEmpty)

            let sameOrigin = try service.request("GET", "/v1/teams", key: key)
            #expect(Self.accessControlHeaders(sameOrigin).isEmpty)
            #expect(sameOrigin.headers["Vary"] == "Origin")
        }
    }

    @Test(
        "error responses carry CORS headers",
        arguments: [
            ("GET", "/v1/teams", false, nil as String?, 401),
            ("POST", "/v1/teams", true, #"{"teamId":"nope"}"#, 422),
            ("GET", "/v1/teams/ZZZZZ99999", true, nil, 404),
            ("GET", "/no/such/path", false, nil, 404),
            ("PUT", "/v1/teams", true, nil, 405),
        ])
    func errorResponsesCarryCORSHeaders(method: String, path: String, authenticated: Bool, json: String?, status: Int) throws {
        try TestService.with(configure: { $0.corsOrigins = [Self.dashboard] }) { service in
            let response = try service.request(
                method, path, key: authenticated ? try service.key() : nil, json: json,
                headers: [("Origin", Self.dashboard)])
            #expect(response.status == status)
            #expect(response.headers["Content-Type"] == "application/problem+json")
            #expect(response.headers["Access-Control-Allow-Origin"] == Self.dashboard)
            #expect(response.headers["Access-Control-Expose-Headers"]?.contains("X-Request-ID") == true)
        }
    }

    @Test func wildcardAllowsAnyOriginWithoutCredentials() throws {
        try TestService.with(configure: { $0.corsOrigins = ["*"] }) { service in
            let preflight = try service.request(
                "OPTIONS", "/v1/domains/links.example.com/rules",
                headers: [
                    ("Origin", "https://anything.example"), ("Access-Control-Request-Method", "PUT"),
                ])
            #expect(preflight.status == 204)
            #expect(preflight.headers["Access-Control-Allow-Origin"] == "*")
            #expect(preflight.headers["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS, POST, PUT")
            #expect(preflight.headers["Access-Control-Allow-Credentials"] == nil)
            let health = try service.request("GET", "/healthz", headers: [("Origin", "https://anything.example")])
            #expect(health.headers["Access-Control-Allow-Origin"] == "*")
            #expect(health.headers["Access-Control-Allow-Credentials"] == nil)
        }
    }

    @Test func offByDefault() throws {
        try TestService.with { service in
            let preflight = try service.request(
                "OPTIONS", "/v1/teams", headers: [("Origin", Self.dashboard), ("Access-Control-Request-Method", "POST")])
            #expect(preflight.status == 204) // the router's own OPTIONS answer, nothing more
            #expect(preflight.headers["Allow"] != nil)
            #expect(Self.accessControlHeaders(preflight).isEmpty)
            let health = try service.request("GET", "/healthz", headers: [("Origin", Self.dashboard)])
            #expect(Self.accessControlHeaders(health).isEmpty)
            #expect(health.headers["Vary"] == nil)
        }
    }

    @Test(
        "configured origins are normalized or rejected",
        arguments: [
            ("https://dash.example.com", "https://dash.example.com"),
            ("HTTPS://Dash.Example.COM/", "https://dash.example.com"),
            ("http://localhost:3000", "http://localhost:3000"),
            ("http://[::1]:8080", "http://[::1]:8080"),
            ("*", "*"),
            ("dash.example.com", nil),
            ("https://dash.example.com/app", nil),
            ("https://user@dash.example.com", nil),
            ("https://dash.example.com:99999", nil),
            ("null", nil),
            ("", nil),
        ] as [(String, String?)])
    func originNormalization(text: String, expected: String?) {
        #expect(CORSMiddleware.normalize(text) == expected)
        #expect(ServiceConfiguration.isValidCORSOrigin(text) == (expected != nil))
    }

    /// The association files' prepared answers carry `Vary: Origin` when CORS is on, so the middleware leaves them
    /// as made (no request id); a fetch from an allowed origin gets the CORS headers the ordinary way.
    @Test func associationFilesVaryByOriginAndStayPrepared() throws {
        try TestService.with(configure: { $0.corsOrigins = [Self.dashboard] }) { service in
            _ = try Fixture(service)
            let host = ("Host", "links.example.com")
            let plain = try service.request("GET", "/.well-known/apple-app-site-association", headers: [host])
            #expect(plain.status == 200)
            #expect(plain.headers["Vary"] == "Origin")
            #expect(plain.headers["X-Request-ID"] == nil)
            #expect(Self.accessControlHeaders(plain).isEmpty)
            let cross = try service.request("GET", "/.well-known/apple-app-site-association", headers: [host, ("Origin", Self.dashboard)])
            #expect(cross.headers["Access-Control-Allow-Origin"] == Self.dashboard)
            #expect(cross.headers["Vary"] == "Origin")
            #expect(cross.headers["X-Request-ID"]?.count == 32)
            #expect(cross.body == plain.body)
        }
        try TestService.with { service in // CORS off: no Vary
            _ = try Fixture(service)
            let plain = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", "links.example.com")])
            #expect(plain.status == 200 && plain.headers["Vary"] == nil)
        }
    }

    /// Router-level: a handler's own `Vary` is kept and extended.
    @Test func varyIsMerged() throws {
        var builder = RouterBuilder()
        builder.use(CORSMiddleware(allowedOrigins: [Self.dashboard]))
        builder.get("/x") { _ in Response(status: 200, headers: ["Vary": "Accept-Encoding"]) }
        let router = Router(builder, logger: .quiet, metrics: .init())
        let response = router.respond(to: Request(method: .GET, path: "/x", headers: ["Origin": Self.dashboard]))
        #expect(response.headers["Vary"] == "Accept-Encoding, Origin")
        #expect(response.headers["Access-Control-Allow-Origin"] == Self.dashboard)
    }
}
