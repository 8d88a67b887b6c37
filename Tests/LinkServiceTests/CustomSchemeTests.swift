import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Custom-scheme links resolve through the rules of the scheme's app on its deciding domain (docs/LINKS.md).
@Suite("Custom schemes")
struct CustomSchemeTests {
    func resolve(_ fixture: Fixture, _ url: String, status: Int = 200) throws -> JSONValue {
        let response = try fixture.service.request(
            "GET", "/v1/resolve?url=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            key: fixture.key)
        #expect(response.status == status, "\(url): \(response.text)")
        return try response.json
    }

    /// The fixture with `customScheme: widgets` on its iOS app.
    func fixture(_ service: TestService) throws -> Fixture {
        let fixture = try Fixture(service)
        try Fixture.expect(
            200, service.request("PATCH", "/v1/apps/\(fixture.iosApp)", key: fixture.key, json: #"{"customScheme":"widgets"}"#))
        try fixture.waitForCatalog { $0.catalog.owner(ofScheme: "widgets", workspace: nil) != nil }
        return fixture
    }

    @Test(arguments: ["widgets://widget/42?tab=reviews", "widgets:///widget/42?tab=reviews"])
    func theAuthorityIsTheFirstPathSegment(_ url: String) throws {
        try TestService.with { service in
            let fixture = try fixture(service)
            let answer = try resolve(fixture, url)
            #expect(answer["outcome"] == .string("open_app"))
            #expect(answer["domain"] == .string("links.example.com"))
            #expect(answer["app"]?["id"] == .string(fixture.iosApp))
            #expect(answer["rule"]?["position"] == .number("1"))
            #expect(answer["destination"]?.serialized == #"{"type":"widgetDetail","params":{"id":42}}"#)
            #expect(
                answer["links"]?.serialized
                    == #"{"universal":"https://links.example.com/widget/42?tab=reviews","scheme":"widgets://widget/42?tab=reviews"}"#)
        }
    }

    @Test func outcomesOfCustomSchemeLinks() throws {
        try TestService.with { service in
            let fixture = try fixture(service)
            #expect(try resolve(fixture, "widgets://nothing/here")["outcome"] == .string("no_match"))
            // An exclusion of the app keeps its scheme's link from opening it too.
            #expect(try resolve(fixture, "widgets://private/x")["outcome"] == .string("no_match"))
            #expect(try resolve(fixture, "other://widget/42")["outcome"] == .string("unknown_scheme"))
            #expect(try resolve(fixture, "https://unknown.example.net/widget/42")["outcome"] == .string("unknown_domain"))
            for refused in ["javascript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd", "JavaScript://widget/42"] {
                let problem = try resolve(fixture, refused, status: 400)
                #expect(problem["status"] == .number("400"))
            }
            // The https answer names the scheme link too; the Android app has none.
            let https = try resolve(fixture, "https://links.example.com/widget/7")
            #expect(https["links"]?.serialized == #"{"universal":"https://links.example.com/widget/7","scheme":"widgets://widget/7"}"#)
            let android = try fixture.service.request(
                "GET", "/v1/resolve?platform=android&url=https%3A%2F%2Flinks.example.com%2Fwidget%2F7", key: fixture.key
            ).json
            #expect(android["links"]?.serialized == #"{"universal":"https://links.example.com/widget/7"}"#)
            #expect(try resolve(fixture, "https://links.example.com/nothing")["links"] == nil)
        }
    }

    @Test func batchResolveTakesCustomSchemes() throws {
        try TestService.with { service in
            let fixture = try fixture(service)
            let response = try service.request(
                "POST", "/v1/resolve", key: fixture.key,
                json: #"{"urls":["widgets://widget/1","other://x","https://links.example.com/widget/2"]}"#)
            #expect(response.status == 200, "\(response.text)")
            let outcomes = try response.json["results"]?.arrayValue?.map { $0["outcome"] }
            #expect(outcomes == [.string("open_app"), .string("unknown_scheme"), .string("open_app")])
            let refused = try service.request("POST", "/v1/resolve", key: fixture.key, json: #"{"urls":["widgets://widget/1","data:,x"]}"#)
            #expect(refused.status == 422 && refused.text.contains("/urls/1"), "\(refused.text)")
        }
    }

    @Test func thePrimaryDomainDecidesElseTheOldest() throws {
        try TestService.with { service in
            let fixture = try fixture(service)
            let key = fixture.key
            // A newer domain whose rules also name the app, with a path the first domain does not claim.
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: key, json: #"{"hostname":"go.example.com"}"#))
            try Fixture.expect(
                200,
                service.request(
                    "PUT", "/v1/domains/go.example.com/rules", key: key,
                    json: """
                        {"rules":[{"apps":["\(fixture.iosApp)"],"path":"/g/{id}","destination":{"type":"widgetDetail"}}]}
                        """))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: "go.example.com")?.compiled.rules.isEmpty == false }
            #expect(try resolve(fixture, "widgets://g/5")["outcome"] == .string("no_match"), "the oldest domain decides")
            let patched = try Fixture.expect(
                200, service.request("PATCH", "/v1/apps/\(fixture.iosApp)", key: key, json: #"{"primaryDomain":"GO.example.com"}"#))
            #expect(try patched.json["primaryDomain"] == .string("go.example.com"))
            try fixture.waitForCatalog { $0.catalog.owner(ofScheme: "widgets", workspace: nil)?.entry.hostname == "go.example.com" }
            let answer = try resolve(fixture, "widgets://g/5")
            #expect(answer["outcome"] == .string("open_app") && answer["domain"] == .string("go.example.com"))
            #expect(answer["links"]?["universal"] == .string("https://go.example.com/g/5"))
            #expect(try service.request("GET", "/v1/apps/\(fixture.iosApp)", key: key).json["primaryDomain"] == .string("go.example.com"))

            // Only a domain of the workspace whose rules name the app; on create, none does yet.
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: key, json: #"{"hostname":"empty.example.com"}"#))
            for hostname in ["empty.example.com", "nowhere.example.org", "not a host"] {
                let refused = try service.request(
                    "PATCH", "/v1/apps/\(fixture.iosApp)", key: key, json: #"{"primaryDomain":"\#(hostname)"}"#)
                #expect(refused.status == 422 && refused.text.contains("/primaryDomain"), "\(hostname): \(refused.text)")
            }
            let created = try service.request(
                "POST", "/v1/apps", key: key,
                json: """
                    {"platform":"ios","name":"New","teamId":"ABCDE12345","bundleId":"com.example.new","primaryDomain":"links.example.com"}
                    """)
            #expect(created.status == 422 && created.text.contains("/primaryDomain"), "\(created.text)")
            #expect(try service.request("GET", "/v1/apps/\(fixture.iosApp)", key: key).json["primaryDomain"] == .string("go.example.com"))
            // null clears it: the oldest domain decides again.
            try Fixture.expect(200, service.request("PATCH", "/v1/apps/\(fixture.iosApp)", key: key, json: #"{"primaryDomain":null}"#))
            try fixture.waitForCatalog { $0.catalog.owner(ofScheme: "widgets", workspace: nil)?.entry.hostname == "links.example.com" }
        }
    }

    @Test func aCustomSchemeLinkIsLogged() throws {
        try TestService.with { service in
            let fixture = try fixture(service)
            _ = try resolve(fixture, "widgets://widget/42")
            _ = try resolve(fixture, "other://x")
            var rows: [String] = []
            try waitUntil("both hits written: \(rows)") {
                rows = try service.application.pool.withConnection { connection in
                    try connection.query("SELECT hostname, outcome FROM hits ORDER BY id").map {
                        try "\($0.decode(0, as: String.self)) \($0.decode(1, as: String.self))"
                    }
                }
                return rows.count >= 2
            }
            #expect(rows == ["links.example.com open_app", "other: unknown_scheme"])
        }
    }
}
