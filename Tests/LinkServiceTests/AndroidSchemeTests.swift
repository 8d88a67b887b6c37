import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Custom schemes of Android apps (docs/LINKS.md): declared as iOS apps declare theirs, unique per platform,
/// resolved for the platform asked only, written into the generated manifest, and used by the landing page's
/// intent URL.
@Suite("Android custom schemes")
struct AndroidSchemeTests {
    func resolve(_ fixture: Fixture, _ url: String, platform: String) throws -> JSONValue {
        let target = "/v1/resolve?url=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! + "&platform=" + platform
        return try Fixture.expect(200, fixture.service.request("GET", target, key: fixture.key)).json
    }

    @Test func androidAppsDeclareSchemesUniquePerPlatform() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, iosApp: #","customScheme":"widgets""#)
            let key = fixture.key
            // An iOS and an Android app of one product share the scheme.
            let patched = try Fixture.expect(
                200, service.request("PATCH", "/v1/apps/\(fixture.androidApp)", key: key, json: #"{"customScheme":"Widgets"}"#))
            #expect(try patched.json["customScheme"] == .string("widgets"))
            #expect(try service.request("GET", "/v1/apps/\(fixture.androidApp)", key: key).json["customScheme"] == .string("widgets"))
            // A second Android app cannot take it, on create or by PATCH; nothing is created or changed.
            let second =
                #"{"platform":"android","name":"Other","packageName":"com.example.other","sha256CertFingerprints":[{"value":"\#(Fixture.fingerprint)"}]"#
            let taken = try service.request("POST", "/v1/apps", key: key, json: second + #","customScheme":"widgets"}"#)
            #expect(taken.status == 409 && taken.text.contains("widgets"), "\(taken.text)")
            #expect(try service.request("GET", "/v1/apps?platform=android", key: key).json["items"]?.arrayValue?.count == 1)
            let other = try Fixture.expect(201, service.request("POST", "/v1/apps", key: key, json: second + #","customScheme":"others"}"#))
                .json
            let otherID = try #require(other["id"]?.stringValue)
            #expect(other["customScheme"] == .string("others"))
            #expect(try service.request("PATCH", "/v1/apps/\(otherID)", key: key, json: #"{"customScheme":"widgets"}"#).status == 409)
            #expect(try service.request("GET", "/v1/apps/\(otherID)", key: key).json["customScheme"] == .string("others"))
            // A PATCH of another field is not refused for the scheme it keeps; null clears it.
            try Fixture.expect(
                200, service.request("PATCH", "/v1/apps/\(fixture.androidApp)", key: key, json: #"{"name":"Widgets for Android"}"#))
            let bad = try service.request("PATCH", "/v1/apps/\(otherID)", key: key, json: #"{"customScheme":"https"}"#)
            #expect(bad.status == 422 && bad.text.contains("/customScheme"), "\(bad.text)")
            let cleared = try Fixture.expect(
                200, service.request("PATCH", "/v1/apps/\(otherID)", key: key, json: #"{"customScheme":null}"#))
            #expect(try cleared.json["customScheme"] == nil)
        }
    }

    @Test func resolveForOnePlatformNeverNamesAnotherPlatformsApp() throws {
        try TestService.with { service in
            let fixture = try Fixture(service, iosApp: #","customScheme":"widgets""#)
            try fixture.waitForCatalog { $0.catalog.owner(ofScheme: "widgets", workspace: nil) != nil }
            // Only the iOS app registered the scheme: an Android phone has no app to hand it to.
            let before = try resolve(fixture, "widgets://widget/42", platform: "android")
            #expect(before["outcome"] == .string("no_match"))
            #expect(before["reason"] == .string("scheme_of_other_platform"))
            #expect(before["app"] == nil && before["destination"] == nil)
            #expect(try resolve(fixture, "widgets://widget/42", platform: "ios")["app"]?["id"] == .string(fixture.iosApp))

            try Fixture.expect(
                200, service.request("PATCH", "/v1/apps/\(fixture.androidApp)", key: fixture.key, json: #"{"customScheme":"widgets"}"#))
            try fixture.waitForCatalog { $0.catalog.owner(ofScheme: "widgets", platform: .android, workspace: nil) != nil }
            let android = try resolve(fixture, "widgets://widget/42?tab=reviews", platform: "android")
            #expect(android["outcome"] == .string("open_app"))
            #expect(android["app"]?["id"] == .string(fixture.androidApp))
            #expect(android["app"]?["packageName"] == .string("com.example.widgets"))
            #expect(android["destination"]?.serialized == #"{"type":"widgetDetail","params":{"id":42}}"#)
            #expect(android["links"]?["scheme"] == .string("widgets://widget/42?tab=reviews"))
            // Android's decision: the manifest cannot exclude, so /private/x opens the app there (as its https URL does).
            #expect(
                try resolve(fixture, "widgets://private/x", platform: "android")["outcome"]
                    == resolve(fixture, "https://links.example.com/private/x", platform: "android")["outcome"])
            // /w/{id}/{tab} names the iOS app only.
            #expect(try resolve(fixture, "widgets://w/5/info", platform: "android")["outcome"] == .string("no_match"))
            #expect(try resolve(fixture, "widgets://w/5/info", platform: "ios")["app"]?["id"] == .string(fixture.iosApp))
            // The https answers name each platform's scheme link.
            #expect(
                try resolve(fixture, "https://links.example.com/widget/7", platform: "android")["links"]?.serialized
                    == #"{"universal":"https://links.example.com/widget/7","scheme":"widgets://widget/7"}"#)

            // An Android-only scheme, asked for iOS.
            try Fixture.expect(
                200, service.request("PATCH", "/v1/apps/\(fixture.iosApp)", key: fixture.key, json: #"{"customScheme":null}"#))
            try fixture.waitForCatalog { $0.catalog.owner(ofScheme: "widgets", platform: .ios, workspace: nil) == nil }
            let ios = try resolve(fixture, "widgets://widget/42", platform: "ios")
            #expect(ios["outcome"] == .string("no_match") && ios["reason"] == .string("scheme_of_other_platform") && ios["app"] == nil)
        }
    }

    @Test func theManifestCarriesTheSchemesIntentFilter() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let path = "/v1/apps/\(fixture.androidApp)/codegen/android-manifest"
            #expect(!(try Fixture.expect(200, service.request("GET", path, key: fixture.key)).text.contains("android:scheme=\"widgets\"")))
            try Fixture.expect(
                200, service.request("PATCH", "/v1/apps/\(fixture.androidApp)", key: fixture.key, json: #"{"customScheme":"widgets"}"#))
            try fixture.waitForCatalog { $0.catalog.owner(ofScheme: "widgets", platform: .android, workspace: nil) != nil }
            let manifest = try Fixture.expect(200, service.request("GET", path, key: fixture.key)).text
            #expect(
                manifest.contains(
                    """
                    <intent-filter>
                        <action android:name="android.intent.action.VIEW" />
                        <category android:name="android.intent.category.DEFAULT" />
                        <category android:name="android.intent.category.BROWSABLE" />
                        <data android:scheme="widgets" />
                    </intent-filter>
                    """), "\(manifest)")
        }
    }

    @Test func theAndroidLandingPageOpensTheAndroidAppByItsScheme() throws {
        try TestService.with { service in
            let fixture = try LandingTests.fixture(service) // the iOS app has the scheme `widgets`
            let path = "/widget/42?tab=info"
            // Without a scheme of its own, the Android app is opened by the https link (never by the iOS app's scheme).
            let https = try #require(
                LandingTests.href(try LandingTests.click(service, path, agent: LandingTests.Agent.android).text, "open"))
            #expect(https.hasPrefix("intent://links.example.com/widget/42?tab=info#Intent;scheme=https;package=com.example.widgets;"))

            try Fixture.expect(
                200, service.request("PATCH", "/v1/apps/\(fixture.androidApp)", key: fixture.key, json: #"{"customScheme":"widgetsdroid"}"#)
            )
            try fixture.waitForCatalog { $0.catalog.owner(ofScheme: "widgetsdroid", platform: .android, workspace: nil) != nil }
            let page = try LandingTests.click(service, path, agent: LandingTests.Agent.android).text
            let open = try #require(LandingTests.href(page, "open"))
            let store = try #require(LandingTests.href(page, "get"))
            #expect(
                open == "intent://widget/42?tab=info#Intent;scheme=widgetsdroid;package=com.example.widgets;S.browser_fallback_url="
                    + LinkFallbackTests.encoded(store) + ";end")
            // The iPhone's page keeps the iOS app's scheme.
            let iPhone = try LandingTests.click(service, path, agent: LandingTests.Agent.iPhone).text
            #expect(LandingTests.href(iPhone, "open") == "widgets://widget/42?tab=info")
        }
    }
}
