import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// Names refuse the bidirectional controls (`TextLimit.isName`) through every door, with a 422 at the pointer; a
/// name stored before the rule is shown on the landing page without them (docs/DESIGN.md, "Bad input").
@Suite("Bidirectional controls in names")
struct NameBidiControlTests {
    /// `invoice<U+202E>gpj.exe`, which reads "invoiceexe.jpg".
    static let spoof = "invoice\\u202Egpj.exe"
    static let spoofText = "invoice\u{202E}gpj.exe"

    /// The pointers of a 422's errors.
    static func pointers(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        #expect(response.status == 422, "\(response.text)", sourceLocation: sourceLocation)
        return try response.json["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
    }

    @Test func everyNameFieldRefusesThemAtItsPointer() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let key = fixture.key
            func refused(_ method: String, _ path: String, _ json: String) throws -> [String] {
                try Self.pointers(service.request(method, path, key: key, json: json))
            }
            #expect(try refused("POST", "/v1/teams", #"{"teamId":"ZYXWV98765","name":"\#(Self.spoof)"}"#) == ["/name"])
            #expect(try refused("PATCH", "/v1/teams/ABCDE12345", #"{"name":"\#(Self.spoof)"}"#) == ["/name"])
            #expect(
                try refused(
                    "POST", "/v1/apps", #"{"platform":"ios","name":"\#(Self.spoof)","teamId":"ABCDE12345","bundleId":"com.example.other"}"#)
                    == ["/name"])
            #expect(try refused("PATCH", "/v1/apps/\(fixture.iosApp)", #"{"name":"x\u2066y"}"#) == ["/name"])
            #expect(
                try refused(
                    "PATCH", "/v1/apps/\(fixture.androidApp)",
                    #"{"sha256CertFingerprints":[{"value":"\#(Fixture.fingerprint)","label":"\#(Self.spoof)"}]}"#) == [
                        "/sha256CertFingerprints/0/label"
                    ])
            #expect(
                try refused("POST", "/v1/apps/\(fixture.iosApp)/destinations", #"{"name":"other","title":"\#(Self.spoof)"}"#) == ["/title"])
            #expect(try refused("POST", "/v1/keys", #"{"name":"\#(Self.spoof)","scope":"read"}"#) == ["/name"])
            let link = #""domain":"links.example.com","url":"https://www.example.com/x""#
            #expect(try refused("POST", "/v1/links?acknowledgeMoves=true", #"{\#(link),"name":"\#(Self.spoof)"}"#) == ["/name"])
            #expect(
                try refused("POST", "/v1/links?acknowledgeMoves=true", #"{\#(link),"preview":{"title":"\#(Self.spoof)"}}"#) == [
                    "/preview/title"
                ])
            #expect(try refused("POST", "/v1/links?acknowledgeMoves=true", #"{\#(link),"tags":["ok","a\u202Db"]}"#) == ["/tags/1"])
            let created = try Fixture.expect(
                201, service.request("POST", "/v1/links?acknowledgeMoves=true", key: key, json: #"{\#(link),"slug":"plain"}"#))
            let id = try #require(try created.json["id"]?.stringValue)
            #expect(try refused("PATCH", "/v1/links/\(id)", #"{"name":"\#(Self.spoof)"}"#) == ["/name"])
            #expect(
                try refused(
                    "PUT", "/v1/domains/links.example.com/rules",
                    #"{"rules":[{"apps":["\#(fixture.iosApp)"],"path":"/p/*","click":{"title":"\#(Self.spoof)"}}]}"#) == [
                        "/rules/0/click/title"
                    ])
            // The marks are no controls of the kind: a right-to-left name may need them.
            try Fixture.expect(
                201, service.request("POST", "/v1/links?acknowledgeMoves=true", key: key, json: #"{\#(link),"name":"שלום\u200F 2"}"#))

            // Bulk: the item refused at its pointer, the others created.
            let bulk = try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/links/bulk?acknowledgeMoves=true", key: key,
                    json: """
                        [{\(link),"slug":"b1"},{\(link),"slug":"b2","name":"\(Self.spoof)"}]
                        """)
            ).json
            #expect(bulk["created"] == .number("1"))
            #expect(bulk["results"]?.arrayValue?.last?["error"]?["errors"]?.arrayValue?.first?["pointer"] == .string("/1/name"))

            // CSV and Firebase imports: the row refused at its column.
            func imported(_ format: String, _ file: String) throws -> JSONValue {
                try Fixture.expect(
                    200,
                    HTTPTestClient.request(
                        port: service.port, method: "POST",
                        path: "/v1/links/import?acknowledgeMoves=true&format=\(format)&domain=links.example.com",
                        headers: [("Authorization", "Bearer \(key)"), ("Content-Type", "text/csv")],
                        body: Array(file.utf8), timeout: 60)
                ).json
            }
            let csv = try imported("csv", "slug,url,name\r\nc1,https://www.example.com/c,\(Self.spoofText)\r\n")
            #expect(csv["created"] == .number("0"))
            #expect(csv["results"]?.arrayValue?.first?["problems"]?.arrayValue?.first?["column"] == .string("name"), "\(csv)")
            let firebase = try imported(
                "firebase",
                "Short link,Deep link (link),Social title (st),Link name\r\n"
                    + "https://links.example.com/f1,https://www.example.com/f,\(Self.spoofText),ok\r\n"
                    + "https://links.example.com/f2,https://www.example.com/f,ok,\(Self.spoofText)\r\n")
            #expect(firebase["created"] == .number("0"), "\(firebase)")

            // The command line's door: a workspace or key name.
            #expect(throws: ServiceError.self) {
                _ = try Workspace.createKey(pool: service.application.pool, workspace: Self.spoofText, scope: .read)
            }
            #expect(throws: ServiceError.self) {
                _ = try Workspace.createKey(pool: service.application.pool, workspace: "acme", scope: .read, keyName: Self.spoofText)
            }
        }
    }

    /// A name stored before the rule still serves; the landing page shows it without the controls.
    @Test func aStoredNameIsShownWithoutThemOnTheLandingPage() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try fixture.createLink(
                """
                {"domain":"links.example.com","slug":"promo","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":42}},
                 "preview":{"title":"Invoice"}}
                """)
            let title = Self.spoofText
            try service.application.pool.withConnection { connection in
                try connection.execute("UPDATE links SET preview = json_build_object('title', \(title)::text) WHERE slug = 'promo'")
            }
            let page = try service.request("GET", "/promo", headers: [("Host", "links.example.com"), ("User-Agent", ClickTests.iPhone)])
            #expect(page.status == 200)
            #expect(page.text.contains("<title>invoicegpj.exe</title>"), "\(page.text.prefix(600))")
            #expect(page.text.contains("<h1>invoicegpj.exe</h1>"))
            #expect(!page.text.unicodeScalars.contains { TextLimit.isBidiControl($0) })
        }
    }
}
