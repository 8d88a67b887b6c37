import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

@Suite("Apps and destinations API")
struct AppsAPITests {
    func setUp(_ service: TestService) throws -> String {
        let key = try service.key()
        try Fixture.expect(201, service.request("POST", "/v1/teams", key: key, json: #"{"teamId":"ABCDE12345","name":"Acme"}"#))
        return key
    }

    @Test func iOSAppLifecycle() throws {
        try TestService.with { service in
            let key = try setUp(service)
            let created = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/apps", key: key,
                    json: """
                        {"platform":"ios","name":"Widgets","teamId":"ABCDE12345","bundleId":"com.example.Widgets","customScheme":"Widgets"}
                        """))
            let app = try created.json
            let id = try #require(app["id"]?.stringValue)
            #expect(app["appId"] == .string("ABCDE12345.com.example.Widgets"))
            #expect(app["customScheme"] == .string("widgets"))
            #expect(created.headers["Location"] == "/v1/apps/\(id)")
            // Bundle IDs are case-insensitive: the same app twice is a conflict.
            #expect(
                try service.request(
                    "POST", "/v1/apps", key: key,
                    json: #"{"platform":"ios","name":"W","teamId":"ABCDE12345","bundleId":"COM.EXAMPLE.WIDGETS"}"#
                ).status == 409)

            let patched = try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/apps/\(id)", key: key, json: #"{"appStoreId":"1234567890","customScheme":null}"#,
                    headers: [("If-Match", created.headers["ETag"]!)]))
            #expect(try patched.json["appStoreId"] == .string("1234567890"))
            #expect(try patched.json["customScheme"] == nil)
            #expect(try service.request("PATCH", "/v1/apps/\(id)", key: key, json: #"{"platform":"android"}"#).status == 422)
            #expect(
                try service.request("DELETE", "/v1/apps/\(id)", key: key, headers: [("If-Match", created.headers["ETag"]!)]).status == 412)
            #expect(try service.request("DELETE", "/v1/apps/\(id)", key: key).status == 204)
            #expect(try service.request("GET", "/v1/apps/\(id)", key: key).status == 404)
        }
    }

    @Test func androidFingerprintsAreNormalisedAndLabelled() throws {
        try TestService.with { service in
            let key = try setUp(service)
            let lower = Fixture.fingerprint.lowercased().replacingOccurrences(of: ":", with: "")
            let created = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/apps", key: key,
                    json: """
                        {"platform":"android","name":"Widgets","packageName":"com.example.widgets",
                         "sha256CertFingerprints":[{"value":"\(lower)","label":"Play App Signing"}],"playStoreUrl":"https://play.google.com/store/apps/details?id=com.example.widgets"}
                        """))
            let fingerprints = try #require(try created.json["sha256CertFingerprints"]?.arrayValue)
            #expect(fingerprints.first?["value"] == .string(Fixture.fingerprint))
            #expect(fingerprints.first?["label"] == .string("Play App Signing"))
            let list = try service.request("GET", "/v1/apps?platform=android", key: key)
            #expect(try list.json["items"]?.arrayValue?.count == 1)
            #expect(try service.request("GET", "/v1/apps?platform=ios", key: key).json["items"]?.arrayValue?.isEmpty == true)
        }
    }

    /// A store link may be as long as a domain's web fallback (2000 characters), as the document says: it was
    /// refused beyond 1000 (found by scripts/fuzz-api).
    @Test func storeLinksHaveTheURLLengthLimit() throws {
        try TestService.with { service in
            let key = try setUp(service)
            let link = "https://play.google.com/store/apps/details?id=com.example.widgets&ref=" + String(repeating: "a", count: 1500)
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/apps", key: key,
                    json: """
                        {"platform":"android","name":"Widgets","packageName":"com.example.widgets",
                         "sha256CertFingerprints":[{"value":"\(Fixture.fingerprint)"}],"playStoreUrl":"\(link)"}
                        """))
        }
    }

    @Test(
        "app validation errors point at the field",
        arguments: [
            (#"{"platform":"ios","name":"A","teamId":"ZZZZZ99999","bundleId":"com.example.a"}"#, "/teamId"),
            (#"{"platform":"ios","name":"A","teamId":"abcde12345","bundleId":"com.example.a"}"#, "/teamId"),
            (#"{"platform":"ios","name":"A","teamId":"ABCDE12345","bundleId":"com.example/a"}"#, "/bundleId"),
            (#"{"platform":"ios","name":"A","teamId":"ABCDE12345","bundleId":"com.example.a","appStoreId":"id123"}"#, "/appStoreId"),
            (#"{"platform":"ios","name":"A","teamId":"ABCDE12345","bundleId":"com.example.a","packageName":"com.x"}"#, "/packageName"),
            (#"{"platform":"android","name":"A","packageName":"1com.example","sha256CertFingerprints":[]}"#, "/packageName"),
            (
                #"{"platform":"android","name":"A","packageName":"com.example.a","sha256CertFingerprints":[{"value":"AB:CD"}]}"#,
                "/sha256CertFingerprints/0/value"
            ),
            (#"{"platform":"android","name":"A","packageName":"com.example.a","sha256CertFingerprints":[]}"#, "/sha256CertFingerprints"),
            (#"{"platform":"windows","name":"A"}"#, "/platform"),
        ])
    func appValidation(body: String, pointer: String) throws {
        try TestService.with { service in
            let key = try setUp(service)
            let response = try service.request("POST", "/v1/apps", key: key, json: body)
            #expect(response.status == 422, "\(response.text)")
            #expect(try response.json["errors"]?.arrayValue?.contains { $0["pointer"] == .string(pointer) } == true, "\(response.text)")
        }
    }

    /// Registers an iOS app (the team `setUp` registered) and answers its id.
    private static func iosApp(_ service: TestService, key: String) throws -> String {
        try Fixture.expect(
            201,
            service.request(
                "POST", "/v1/apps", key: key, json: #"{"platform":"ios","name":"A","teamId":"ABCDE12345","bundleId":"com.example.a"}"#)
        ).json["id"]!.stringValue!
    }

    @Test func destinationLifecycle() throws {
        try TestService.with { service in
            let key = try setUp(service)
            let app = try Self.iosApp(service, key: key)
            let created = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/apps/\(app)/destinations", key: key,
                    json: """
                        {"name":"widgetDetail","params":{"id":{"type":"int","min":1},"ref":{"type":"uuid","optional":true},"on":{"type":"bool"},"q":{"type":"string","maxLength":10}}}
                        """))
            #expect(created.headers["Location"] == "/v1/apps/\(app)/destinations/widgetDetail")
            #expect(try created.json["params"]?["id"] == JSONValue.object(["type": .string("int"), "min": .number("1")]))
            #expect(try service.request("POST", "/v1/apps/\(app)/destinations", key: key, json: #"{"name":"widgetDetail"}"#).status == 409)
            let replaced = try Fixture.expect(
                200,
                service.request(
                    "PUT", "/v1/apps/\(app)/destinations/widgetDetail", key: key,
                    json: #"{"title":"Widget","params":{"id":{"type":"int"}}}"#, headers: [("If-Match", created.headers["ETag"]!)]))
            #expect(try replaced.json["title"] == .string("Widget"))
            #expect(try service.request("GET", "/v1/apps/\(app)/destinations", key: key).json["items"]?.arrayValue?.count == 1)
            #expect(try service.request("DELETE", "/v1/apps/\(app)/destinations/widgetDetail", key: key).status == 204)
            #expect(try service.request("GET", "/v1/apps/\(app)/destinations/widgetDetail", key: key).status == 404)
        }
    }

    @Test(
        "parameter declarations are validated",
        arguments: [
            (#"{"name":"d","params":{"id":{"type":"float"}}}"#, "/params/id/type"),
            (#"{"name":"d","params":{"id":{"type":"int","min":5,"max":1}}}"#, "/params/id/min"),
            (#"{"name":"d","params":{"tab":{"type":"enum","values":[]}}}"#, "/params/tab/values"),
            (#"{"name":"d","params":{"tab":{"type":"enum","values":["a","a"]}}}"#, "/params/tab/values"),
            (#"{"name":"d","params":{"id":{"type":"int","minimum":1}}}"#, "/params/id/minimum"),
            (#"{"name":"d","params":{"1x":{"type":"int"}}}"#, "/params/1x"),
            (#"{"name":"bad name"}"#, "/name"),
        ])
    func parameterValidation(body: String, pointer: String) throws {
        try TestService.with { service in
            let key = try setUp(service)
            let app = try Self.iosApp(service, key: key)
            let response = try service.request("POST", "/v1/apps/\(app)/destinations", key: key, json: body)
            #expect(response.status == 422, "\(response.text)")
            #expect(try response.json["errors"]?.arrayValue?.contains { $0["pointer"] == .string(pointer) } == true, "\(response.text)")
        }
    }
}
