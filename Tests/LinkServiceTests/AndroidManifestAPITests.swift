import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `GET /v1/apps/{id}/codegen/android-manifest`, the `androidDynamicRules` domain setting, and the dynamic
/// rules it serves in `assetlinks.json` (docs/ANDROID.md).
@Suite("Android manifest API", .serialized)
struct AndroidManifestAPITests {
    func served(_ service: TestService) throws -> JSONValue {
        try Fixture.expect(200, service.request("GET", "/.well-known/assetlinks.json", headers: [("Host", "links.example.com")])).json
    }

    @Test func theManifestNamesTheDomainAndPathsWithAnETag() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let path = "/v1/apps/\(fixture.androidApp)/codegen/android-manifest"
            let response = try Fixture.expect(200, service.request("GET", path, key: fixture.key))
            #expect(response.headers["Content-Type"] == "application/xml; charset=utf-8")
            let etag = try #require(response.headers["ETag"])
            #expect(response.text.contains("(rules \(etag))"))
            #expect(response.text.contains(#"<intent-filter android:autoVerify="true">"#))
            #expect(response.text.contains(#"<data android:host="links.example.com" />"#))
            #expect(response.text.contains(#"<data android:pathPattern="/widget/..*" />"#))
            #expect(response.text.contains("exclusionIgnoredOnAndroid"))
            #expect(try service.request("GET", path, key: fixture.key, headers: [("If-None-Match", etag)]).status == 304)
            // The ETag follows the rules.
            try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                    json: #"{"apps":["\#(fixture.androidApp)"],"path":"/shop/*"}"#))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: fixture.host)?.compiled.rules.count == 4 }
            let changed = try Fixture.expect(200, service.request("GET", path, key: fixture.key, headers: [("If-None-Match", etag)]))
            #expect(changed.headers["ETag"] != etag && changed.text.contains(#"<data android:pathPrefix="/shop/" />"#))
        }
    }

    @Test func badRequestsAreRefused() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let ios = try service.request("GET", "/v1/apps/\(fixture.iosApp)/codegen/android-manifest", key: fixture.key)
            #expect(ios.status == 422 && ios.headers["Content-Type"] == "application/problem+json")
            #expect(try service.request("GET", "/v1/apps/not-an-id/codegen/android-manifest", key: fixture.key).status == 404)
            #expect(try service.request("GET", "/v1/apps/\(UUID().uuidString)/codegen/android-manifest", key: fixture.key).status == 404)
            #expect(try service.request("GET", "/v1/apps/\(fixture.androidApp)/codegen/android-manifest").status == 401)
            let other = try service.key(workspace: "other")
            #expect(try service.request("GET", "/v1/apps/\(fixture.androidApp)/codegen/android-manifest", key: other).status == 404)
            // An Android app no rule names has no links to write filters for.
            let lonely = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/apps", key: fixture.key,
                    json: """
                        {"platform":"android","name":"Other","packageName":"com.example.other","sha256CertFingerprints":[{"value":"\(Fixture.fingerprint)"}]}
                        """)
            ).json["id"]!.stringValue!
            #expect(try service.request("GET", "/v1/apps/\(lonely)/codegen/android-manifest", key: fixture.key).status == 409)
            // The setting takes a boolean only, and a refused write changes nothing.
            let bad = try service.request("PATCH", "/v1/domains/\(fixture.host)", key: fixture.key, json: #"{"androidDynamicRules":"yes"}"#)
            #expect(bad.status == 422 && bad.text.contains("/androidDynamicRules"))
            let domain = try Fixture.expect(200, service.request("GET", "/v1/domains/\(fixture.host)", key: fixture.key)).json
            #expect(domain["androidDynamicRules"] == .bool(false))
            #expect(try served(service).arrayValue?.first?["relation_extensions"] == nil)
        }
    }

    @Test func theDomainSettingServesDynamicRulesAndAndroidResolveReadsThem() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let resolve = { (url: String) throws -> JSONValue in
                let target = "/v1/resolve?url=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&platform=android"
                return try Fixture.expect(200, service.request("GET", target, key: fixture.key)).json
            }
            // Without dynamic rules the manifest decides, and it cannot exclude.
            #expect(try resolve("https://links.example.com/private/x")["outcome"] == .string("no_match"))
            let patched = try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/domains/\(fixture.host)", key: fixture.key,
                    json: #"{"androidDynamicRules":true}"#))
            #expect(try patched.json["androidDynamicRules"] == .bool(true))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: fixture.host)?.compiled.settings.androidDynamicRules == true }
            let statement = try #require(try served(service).arrayValue?.first)
            let components = statement["relation_extensions"]?[AssetLinksFile.handleAllURLs]?["dynamic_app_link_components"]
            #expect(components?.serialized == #"[{"/":"/private/*","exclude":true},{"/":"/private","exclude":true},{"/":"/widget/?*"}]"#)
            #expect(
                try resolve("https://links.example.com/widget/7")["destination"]?.serialized
                    == #"{"type":"widgetDetail","params":{"id":7}}"#)
            // The served file lints clean of errors, and says what Android 14 does with the exclusion.
            let findings = AssetLinksLinter.lint(json: try served(service))
            #expect(findings.allSatisfy { $0.severity == .warning } && findings.contains { $0.code == "exclusionNeedsAndroid15" })
            let manifest = try Fixture.expect(
                200, service.request("GET", "/v1/apps/\(fixture.androidApp)/codegen/android-manifest", key: fixture.key))
            #expect(manifest.text.contains("exclusionNeedsAndroid15"))
        }
    }
}
