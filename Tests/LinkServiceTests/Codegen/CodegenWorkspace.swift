import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// A workspace with every parameter kind and every AASA feature a generated router decides on: exclusions,
/// query-item and fragment captures, raw patterns with substitution variables, `caseSensitive` and
/// `percentEncoded` off, constants, a claim without destination, a rest capture, a wildcard domain shadowed
/// by an exact one, and another app whose earlier rule takes some URLs. `links.example.com` opts in to pasteboard
/// claims and the iOS app has an App Store page, so its landing pages hand out click tokens on both platforms. Literal
/// paths, a literal query item and fragment are for builds. With `platform: "android"` the two apps
/// are Android apps, and `links.example.com` serves dynamic rules while the wildcard domain leaves the manifest
/// alone to decide (docs/ANDROID.md).
struct CodegenWorkspace {
    let service: TestService
    let key: String
    let platform: String
    let app: String
    let other: String

    init(_ service: TestService, platform: String = "ios") throws {
        self.service = service
        self.platform = platform
        let key = try service.key(workspace: "codegen")
        self.key = key
        func create(_ name: String, _ identifier: String, _ scheme: String) throws -> String {
            let json =
                platform == "android"
                ? #"{"platform":"android","name":"\#(name)","packageName":"\#(identifier)","sha256CertFingerprints":[{"value":"\#(Fixture.fingerprint)"}]\#(scheme)}"#
                : #"{"platform":"ios","name":"\#(name)","teamId":"ABCDE12345","bundleId":"\#(identifier)"\#(scheme)}"#
            return try Fixture.expect(201, service.request("POST", "/v1/apps", key: key, json: json)).json["id"]!.stringValue!
        }
        try Fixture.expect(201, service.request("POST", "/v1/teams", key: key, json: #"{"teamId":"ABCDE12345","name":"Acme"}"#))
        // Android apps declare their scheme as iOS apps do (the manifest's filter); the router routes its URLs.
        app = try create(
            "Widgets", "com.example.widgets",
            platform == "android" ? #","customScheme":"widgets""# : #","customScheme":"widgets","appStoreId":"1234567890""#)
        other = try create("Other", "com.example.other", "")
        let destinations = [
            #"{"name":"widgetDetail","params":{"id":{"type":"int","min":1,"max":100000},"tab":{"type":"enum","values":["info","reviews","new-arrivals"],"optional":true}}}"#,
            #"{"name":"profile","requiresSignIn":true,"params":{"user":{"type":"uuid"}}}"#,
            #"{"name":"search","params":{"q":{"type":"string","minLength":2,"maxLength":20},"exact":{"type":"bool","optional":true}}}"#,
            #"{"name":"docs","params":{"page":{"type":"string"}}}"#,
            #"{"name":"home"}"#,
            #"{"name":"account"}"#,
            #"{"name":"promo","params":{"code":{"type":"string"},"campaign":{"type":"string"}}}"#,
        ]
        for destination in destinations {
            try Fixture.expect(201, service.request("POST", "/v1/apps/\(app)/destinations", key: key, json: destination))
        }
        try Fixture.expect(201, service.request("POST", "/v1/apps/\(other)/destinations", key: key, json: #"{"name":"home"}"#))
        try Fixture.expect(
            201,
            service.request(
                "POST", "/v1/domains", key: key,
                json: """
                    {"hostname":"links.example.com","substitutionVariables":{"section":["news","blog"]},"androidDynamicRules":true,"deferredClipboard":true}
                    """))
        try Fixture.expect(
            201, service.request("POST", "/v1/domains", key: key, json: #"{"hostname":"*.example.org","defaults":{"caseSensitive":false}}"#)
        )
        try Fixture.expect(201, service.request("POST", "/v1/domains", key: key, json: #"{"hostname":"shop.example.org"}"#))
        try put(
            "links.example.com",
            """
            [{"apps":["$A"],"path":"/private/*","exclude":true},
             {"apps":["$A"],"path":"/widget/{id}","query":{"tab":"{tab}"},"destination":{"type":"widgetDetail"}},
             {"apps":["$A"],"path":"/widget/{id}","destination":{"type":"widgetDetail"}},
             {"apps":["$A"],"path":"/w/{id}","fragment":"{tab}","destination":{"type":"widgetDetail"}},
             {"apps":["$A"],"path":"/u/{user}","caseSensitive":false,"destination":{"type":"profile"}},
             {"apps":["$A"],"path":"/search","query":{"q":"{q}","exact":"{exact}"},"percentEncoded":false,"destination":{"type":"search"}},
             {"apps":["$A"],"path":"/find/{q}","percentEncoded":false,"destination":{"type":"search","params":{"exact":true}}},
             {"apps":["$A"],"path":"/docs/{page*}","destination":{"type":"docs"}},
             {"apps":["$A"],"path":"/start","query":{"src":"push"},"fragment":"top","destination":{"type":"home"}},
             {"apps":["$A"],"path":"/$(section)/*","destination":{"type":"home"}},
             {"apps":["$A"],"path":"/p/{code}-{x}","destination":{"type":"promo","params":{"campaign":"spring"}}},
             {"apps":["$A"],"path":"/account","destination":{"type":"account"}},
             {"apps":["$A"],"path":"/claim/?*"},
             {"apps":["$A"],"path":"/","destination":{"type":"home"}}]
            """)
        try put(
            "*.example.org",
            """
            [{"apps":["$B"],"path":"/w/7*","destination":{"type":"home"}},
             {"apps":["$A"],"path":"/w/{id}","destination":{"type":"widgetDetail"}},
             {"apps":["$A","$B"],"path":"/Home","destination":{"type":"home"}}]
            """)
        try put("shop.example.org", #"[{"apps":["$B"],"path":"/w/*","destination":{"type":"home"}}]"#)
    }

    /// The targeted links' URLs (`addTargetedLinks`): a target with a split, and a split of the link's own.
    static let targetedURLs = ["https://links.example.com/spring", "widgets://spring", "https://links.example.com/sale"]

    /// Two targeted links on `links.example.com`, to the app: `spring` (visitors from Germany see widget 2, split
    /// between widgets 3 and 4; the others widget 1) and `sale` (widget 5 or 6).
    func addTargetedLinks() throws {
        func widget(_ id: Int) -> String { #""app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":\#(id)}}"# }
        let links = [
            #"{"domain":"links.example.com","slug":"spring",\#(widget(1)),"targets":[{"name":"germany","conditions":{"countries":["DE"]},\#(widget(2)),"variants":[{"name":"a","weight":50,\#(widget(3))},{"name":"b","weight":50,\#(widget(4))}]}]}"#,
            #"{"domain":"links.example.com","slug":"sale",\#(widget(5)),"variants":[{"name":"a","weight":1,\#(widget(5))},{"name":"b","weight":1,\#(widget(6))}]}"#,
        ]
        for link in links { try Fixture.expect(201, service.request("POST", "/v1/links?acknowledgeMoves=true", key: key, json: link)) }
    }

    private func put(_ host: String, _ rules: String) throws {
        let body = #"{"rules":"# + rules.replacingOccurrences(of: "$A", with: app).replacingOccurrences(of: "$B", with: other) + "}"
        try Fixture.expect(200, service.request("PUT", "/v1/domains/\(host)/rules", key: key, json: body))
    }

    /// The generated file or fixtures.
    func codegen(_ what: String) throws -> TestResponse {
        try Fixture.expect(200, service.request("GET", "/v1/apps/\(app)/codegen/\(what)", key: key))
    }

    /// What the app's router must answer for each URL, from resolve (batches of 1,000): the destination's JSON
    /// text, "resolve" for a targeted link (the router hands it to resolve), or "null" when the app opens nothing. A custom-scheme URL is asked as it is, in any spelling, for the
    /// app's platform: resolve hands it to that platform's app of the scheme, as the phone does.
    func expected(_ urls: [String]) throws -> [String] {
        var answers: [String] = []
        for start in stride(from: 0, to: urls.count, by: 1000) {
            let batch = urls[start..<min(start + 1000, urls.count)]
            let body = JSONValue.object(["urls": .array(batch.map(JSONValue.string)), "log": .bool(false), "platform": .string(platform)])
                .serialized
            let results = try Fixture.expect(200, service.request("POST", "/v1/resolve", key: key, json: body)).json["results"]!.arrayValue!
            for result in results {
                let opens =
                    result["outcome"]?.stringValue.map { ["open_app", "invalid_param"].contains($0) } == true
                    && result["app"]?["id"]?.stringValue == app
                // A targeted link is resolve's to answer: the router hands it over (`decide`).
                let answer = result["targeted"] == .bool(true) ? "resolve" : result["destination"]?.serialized ?? "null"
                answers.append(opens ? answer : "null")
            }
        }
        return answers
    }
}
