import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// A workspace set up through the API, as a user would: a team, an iOS app with a destination type, an
/// Android app, a domain and rules.
struct Fixture {
    let service: TestService
    let key: String
    let iosApp: String
    let androidApp: String
    let host: String

    static let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    /// - Parameter rules: the rule list JSON (`[...]`), with `$IOS` and `$ANDROID` standing for the app ids.
    /// - Parameter domainSettings: more members of the domain (`"clickBehavior":"redirect"`), JSON after a comma.
    /// - Parameter iosApp: more members of the iOS app (`"customScheme":"widgets"`).
    init(
        _ service: TestService, workspace: String = "acme", host: String = "links.example.com", rules: String? = nil,
        domainSettings: String = "", iosApp iosMembers: String = "", destination: String = ""
    ) throws {
        self.service = service
        self.host = host
        key = try service.key(workspace: workspace)
        try Self.expect(201, service.request("POST", "/v1/teams", key: key, json: #"{"teamId":"ABCDE12345","name":"Acme"}"#))
        iosApp = try Self.expect(
            201,
            service.request(
                "POST", "/v1/apps", key: key,
                json: """
                    {"platform":"ios","name":"Widgets","teamId":"ABCDE12345","bundleId":"com.example.widgets","appStoreId":"1234567890"\(iosMembers)}
                    """)
        ).json["id"]!.stringValue!
        androidApp = try Self.expect(
            201,
            service.request(
                "POST", "/v1/apps", key: key,
                json: """
                    {"platform":"android","name":"Widgets","packageName":"com.example.widgets",
                     "sha256CertFingerprints":[{"value":"\(Self.fingerprint)","label":"Play App Signing"}]}
                    """)
        ).json["id"]!.stringValue!
        for app in [iosApp, androidApp] {
            try Self.expect(
                201,
                service.request(
                    "POST", "/v1/apps/\(app)/destinations", key: key,
                    json: """
                        {"name":"widgetDetail","title":"Widget"\(destination),"params":{"id":{"type":"int","min":1},"tab":{"type":"enum","values":["info","reviews"],"optional":true}}}
                        """))
        }
        try Self.expect(
            201,
            service.request(
                "POST", "/v1/domains", key: key,
                json: """
                    {"hostname":"\(host)","webFallbackUrl":"https://www.example.com","carryPathToFallback":true\(domainSettings)}
                    """))
        let list =
            rules ?? """
                [{"apps":["$IOS","$ANDROID"],"path":"/private/*","exclude":true},
                 {"apps":["$IOS","$ANDROID"],"path":"/widget/{id}","query":{"tab":"*"},"destination":{"type":"widgetDetail"}},
                 {"apps":["$IOS"],"path":"/w/{id}/{tab}","destination":{"type":"widgetDetail"}}]
                """
        let body =
            #"{"rules":"# + list.replacingOccurrences(of: "$IOS", with: iosApp).replacingOccurrences(of: "$ANDROID", with: androidApp) + "}"
        try Self.expect(200, service.request("PUT", "/v1/domains/\(host)/rules", key: key, json: body))
        try waitForCatalog { $0.catalog.entry(exactly: host)?.compiled.rules.isEmpty == false }
    }

    /// `POST /v1/links` with `json` in the fixture's workspace, the moves it makes acknowledged (the moves' own tests
    /// post without), answered as it is.
    func postLink(_ json: String) throws -> TestResponse {
        try service.request("POST", "/v1/links?acknowledgeMoves=true", key: key, json: json)
    }

    /// Creates the link `json` describes in the fixture's workspace (`postLink`), failing unless it is created.
    @discardableResult
    func createLink(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TestResponse {
        try Self.expect(201, postLink(json), sourceLocation: sourceLocation)
    }

    /// Waits until the catalog, updated asynchronously by NOTIFY, satisfies `condition`.
    func waitForCatalog(_ condition: (Application) -> Bool) throws {
        try waitUntil("the catalog to catch up") { condition(service.application) }
    }

    @discardableResult
    static func expect(_ status: Int, _ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> TestResponse {
        guard response.status == status else {
            throw TestFailure("expected \(status), got \(response.status): \(response.text)")
        }
        return response
    }
}
