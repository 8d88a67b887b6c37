import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// A capture bound to an optional parameter (`tab` of `widgetDetail`), in a query item, a path segment and the
/// fragment: the served AASA file, resolve on both platforms (Android with the manifest alone and with dynamic
/// rules), a click and `POST /v1/links/build` all agree that a link may leave it out.
@Suite("Optional captures over the API")
struct OptionalCaptureAPITests {
    static let rules = """
        [{"apps":["$IOS","$ANDROID"],"path":"/p/{id}","query":{"tab":"{tab}"},"destination":{"type":"widgetDetail"}},
         {"apps":["$IOS","$ANDROID"],"path":"/t/{id}/{tab}","destination":{"type":"widgetDetail"}},
         {"apps":["$IOS","$ANDROID"],"path":"/s/{id}","fragment":"{tab}","destination":{"type":"widgetDetail"}}]
        """

    func resolve(_ fixture: Fixture, _ url: String, platform: String) throws -> JSONValue {
        let target = "/v1/resolve?url=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&platform=" + platform
        let response = try fixture.service.request("GET", target, key: fixture.key)
        #expect(response.status == 200, "\(response.text)")
        return try response.json
    }

    @Test func resolveBuildAndTheFileAgreeOnBothPlatforms() throws {
        try TestService.with { service in
            let manifest = try Fixture(service, rules: Self.rules, domainSettings: #","clickBehavior":"redirect""#)
            let dynamic = try Fixture(
                service, workspace: "dynamic", host: "dyn.example.com", rules: Self.rules,
                domainSettings: #","androidDynamicRules":true"#)
            for fixture in [manifest, dynamic] {
                let host = fixture.host
                let file = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", host)])
                #expect(
                    file.text.contains(#""?":{"tab":"*"}"#) && file.text.contains(#""/":"/t/?*/*""#) && file.text.contains(##""#":"*""##),
                    "\(file.text)")
                let cases: [(url: String, destination: String)] = [
                    ("/p/42", #"{"type":"widgetDetail","params":{"id":42}}"#),
                    ("/p/42?tab=reviews", #"{"type":"widgetDetail","params":{"id":42,"tab":"reviews"}}"#),
                    ("/t/5", #"{"type":"widgetDetail","params":{"id":5}}"#),
                    ("/t/5/info", #"{"type":"widgetDetail","params":{"id":5,"tab":"info"}}"#),
                    ("/s/9", #"{"type":"widgetDetail","params":{"id":9}}"#),
                    ("/s/9#info", #"{"type":"widgetDetail","params":{"id":9,"tab":"info"}}"#),
                ]
                for (path, destination) in cases {
                    for platform in ["ios", "android"] {
                        let answer = try resolve(fixture, "https://\(host)\(path)", platform: platform)
                        #expect(answer["outcome"] == .string("open_app"), "\(host)\(path) \(platform): \(answer.serialized)")
                        #expect(answer["destination"]?.serialized == destination, "\(host)\(path) \(platform): \(answer.serialized)")
                    }
                }
                for app in [fixture.iosApp, fixture.androidApp] {
                    let response = try service.request(
                        "POST", "/v1/links/build", key: fixture.key,
                        json: """
                            {"app":"\(app)","destination":{"type":"widgetDetail","params":{"id":7}}}
                            """)
                    #expect(response.status == 200, "\(response.text)")
                    #expect(try response.json["universal"] == .string("https://\(host)/p/7"), "\(response.text)")
                }
            }
            // An iPhone click on the link opens the app's store page (the file claims it), not the website.
            let click = try service.request("GET", "/p/42", headers: [("Host", manifest.host), ("User-Agent", ClickTests.iPhone)])
            #expect(click.status == 302 && click.headers["Location"] == "https://apps.apple.com/app/id1234567890", "\(click.headers)")
        }
    }

    @Test func previewWritesTheOptionalPatternAndLintsNothing() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let body =
                #"{"rules":"#
                + Self.rules.replacingOccurrences(of: "$IOS", with: fixture.iosApp)
                .replacingOccurrences(of: "$ANDROID", with: fixture.androidApp) + "}"
            let response = try service.request("POST", "/v1/domains/\(fixture.host)/preview", key: fixture.key, json: body)
            #expect(response.status == 200, "\(response.text)")
            let preview = try response.json
            let components = preview["aasa"]?["applinks"]?["details"]?.arrayValue?.first?["components"]?.arrayValue ?? []
            #expect(components.first?["?"]?.serialized == #"{"tab":"*"}"#, "\(preview.serialized)")
            #expect(preview["lint"]?.arrayValue == [], "\(preview.serialized)")
        }
    }

    /// Item 4 of the defects issue: a rule an earlier rule of the same apps decides every URL of is linted.
    @Test func previewLintsAShadowedRule() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let rules = """
                [{"apps":["$IOS","$ANDROID"],"path":"/c/{slug}","destination":{"type":"widgetDetail","params":{"id":1}}},
                 {"apps":["$IOS","$ANDROID"],"path":"/c/sale","destination":{"type":"widgetDetail","params":{"id":2}}}]
                """
            let body =
                #"{"rules":"#
                + rules.replacingOccurrences(of: "$IOS", with: fixture.iosApp)
                .replacingOccurrences(of: "$ANDROID", with: fixture.androidApp) + "}"
            let response = try service.request("POST", "/v1/domains/\(fixture.host)/preview", key: fixture.key, json: body)
            #expect(response.status == 200, "\(response.text)")
            let lint = try response.json["lint"]?.arrayValue ?? []
            #expect(
                lint.count == 1 && lint.first?["code"] == .string("unreachableRule") && lint.first?["severity"] == .string("warning"),
                "\(lint)")
            #expect(lint.first?["pointer"] == .string("/applinks/details/0/components/1"), "\(lint)")
            #expect(lint.first?["message"]?.stringValue?.contains("/applinks/details/0/components/0") == true, "\(lint)")
        }
    }
}
