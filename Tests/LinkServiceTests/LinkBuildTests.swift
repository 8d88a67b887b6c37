import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `POST /v1/links/build`: typed destination in, URLs out, resolving back to the same rule (docs/LINKS.md).
@Suite("Link building")
struct LinkBuildTests {
    func build(_ fixture: Fixture, _ json: String, status: Int = 200, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue
    {
        let response = try fixture.service.request("POST", "/v1/links/build", key: fixture.key, json: json)
        #expect(response.status == status, "\(json): \(response.text)", sourceLocation: sourceLocation)
        return try response.json
    }

    @Test func buildsTheLinkResolveAnswersWith() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try Fixture.expect(
                200, service.request("PATCH", "/v1/apps/\(fixture.iosApp)", key: fixture.key, json: #"{"customScheme":"widgets"}"#))
            try fixture.waitForCatalog { $0.catalog.owner(ofScheme: "widgets", workspace: nil) != nil }
            let rules = try service.request("GET", "/v1/domains/\(fixture.host)/rules", key: fixture.key).json["items"]?.arrayValue ?? []
            let built = try build(fixture, #"{"app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":42}}}"#)
            #expect(built["universal"] == .string("https://links.example.com/widget/42"))
            #expect(built["scheme"] == .string("widgets://widget/42"))
            #expect(built["domain"] == .string("links.example.com"))
            #expect(built["rule"]?["position"] == .number("1") && built["rule"]?["id"] == rules[1]["id"])
            // The tab has no capture in rule 1 (a wildcard item): rule 2 prints it.
            let tab = try build(
                fixture,
                #"{"app":"\#(fixture.iosApp)","domain":"links.example.com","destination":{"type":"widgetDetail","params":{"id":7,"tab":"info"}}}"#
            )
            #expect(tab["universal"] == .string("https://links.example.com/w/7/info") && tab["rule"]?["position"] == .number("2"))
            let resolved = try service.request("GET", "/v1/resolve?url=widgets%3A%2F%2Fw%2F7%2Finfo", key: fixture.key).json
            #expect(resolved["rule"] == tab["rule"])
            #expect(resolved["destination"]?.serialized == #"{"type":"widgetDetail","params":{"id":7,"tab":"info"}}"#)
            // The Android app has no scheme.
            let android = try build(fixture, #"{"app":"\#(fixture.androidApp)","destination":{"type":"widgetDetail","params":{"id":1}}}"#)
            #expect(android["universal"] == .string("https://links.example.com/widget/1") && android["scheme"] == nil)
        }
    }

    @Test func refusesWhatItCannotBuild() throws {
        try TestService.with { service in
            let fixture = try Fixture(
                service,
                rules: """
                    [{"apps":["$IOS"],"path":"/widget/13","exclude":true},
                     {"apps":["$IOS"],"path":"/widget/{id}","destination":{"type":"widgetDetail"}},
                     {"apps":["$ANDROID"],"path":"/a/*","destination":{"type":"widgetDetail","params":{"id":1}}}]
                    """)
            let app = fixture.iosApp
            func pointers(_ answer: JSONValue) -> [String] { answer["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? [] }
            let missing = try build(fixture, #"{"app":"\#(app)","destination":{"type":"widgetDetail","params":{}}}"#, status: 422)
            #expect(pointers(missing) == ["/destination/params/id"])
            let range = try build(
                fixture, #"{"app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":0,"tab":"x","more":1}}}"#, status: 422)
            #expect(pointers(range) == ["/destination/params/id", "/destination/params/tab", "/destination/params/more"])
            let shadowed = try build(fixture, #"{"app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":13}}}"#, status: 422)
            #expect(
                pointers(shadowed) == ["/destination"] && shadowed["detail"]?.stringValue?.contains("position 0") == true, "\(shadowed)")
            let raw = try build(
                fixture, #"{"app":"\#(fixture.androidApp)","destination":{"type":"widgetDetail","params":{"id":1}}}"#, status: 422)
            // (Only a raw pattern is bound to the type for the Android app.)
            #expect(raw["detail"]?.stringValue?.contains("raw AASA pattern") == true, "\(raw)")
            let type = try build(fixture, #"{"app":"\#(app)","destination":{"type":"nope","params":{}}}"#, status: 422)
            #expect(pointers(type) == ["/destination/type"])
            let noApp = try build(fixture, #"{"app":"\#(UUID().uuidString)","destination":{"type":"widgetDetail"}}"#, status: 422)
            #expect(pointers(noApp) == ["/app"])
            let domain = try build(
                fixture, #"{"app":"\#(app)","domain":"other.example.com","destination":{"type":"widgetDetail","params":{"id":1}}}"#,
                status: 422)
            #expect(pointers(domain) == ["/domain"])
            let shape = try build(fixture, #"{"app":"x","destination":{"type":"widgetDetail","params":[]},"extra":1}"#, status: 422)
            #expect(Set(pointers(shape)) == ["/app", "/destination/params", "/extra"])
            // Another workspace's key sees no such app.
            let other = try Fixture(service, workspace: "other", host: "other.example.net")
            let foreign = try service.request(
                "POST", "/v1/links/build", key: other.key,
                json: #"{"app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":1}}}"#)
            #expect(foreign.status == 422)
        }
    }

    @Test func buildsUpToAThousandAtOnce() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let app = fixture.iosApp
            var items = (1...998).map { #"{"app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":\#($0)}}}"# }
            items.append(#"{"app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":0}}}"#)
            items.append(#"{"app":"\#(app)","destination":{"type":"widgetDetail","params":{"id":5}},"typo":1}"#)
            let answer = try build(fixture, #"{"links":[\#(items.joined(separator: ","))]}"#)
            let results = answer["results"]?.arrayValue ?? []
            #expect(results.count == 1000)
            #expect(results[0]["universal"] == .string("https://links.example.com/widget/1"))
            #expect(results[997]["universal"] == .string("https://links.example.com/widget/998"))
            #expect(results[998]["error"]?["status"] == .number("422"))
            #expect(results[998]["error"]?["errors"]?.arrayValue?.first?["pointer"] == .string("/links/998/destination/params/id"))
            #expect(results[999]["error"]?["errors"]?.arrayValue?.first?["pointer"] == .string("/links/999/typo"))
            items.append(items[0])
            let tooMany = try build(fixture, #"{"links":[\#(items.joined(separator: ","))]}"#, status: 422)
            #expect(tooMany["errors"]?.arrayValue?.first?["pointer"] == .string("/links"))
        }
    }
}
