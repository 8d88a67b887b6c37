import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `GET /v1/links/export` carries a link's targets and variants in both its forms (docs/LINKS-IMPORT.md): the CSV's
/// `targets` and `variants` columns, which import back, and `format=ndjson`, one link a line as the API answers it.
@Suite("Links export: targets and variants")
struct LinkExportTargetingTests {
    static let targets =
        #"[{"name":"de","conditions":{"countries":["DE","AT"]},"url":"https://www.example.de"},{"name":"phones","conditions":{"platforms":[{"platform":"android"}]},"url":"https://www.example.com/android"}]"#
    static let variants =
        #"[{"name":"a","weight":70,"url":"https://www.example.com/a"},{"name":"b","weight":30,"url":"https://www.example.com/b"}]"#

    @Test func bothExportsCarryTargetsAndVariantsAndTheCSVImportsThemBack() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let created = try fixture.createLink(
                """
                {"domain":"\(fixture.host)","slug":"split","url":"https://www.example.com","targets":\(Self.targets),"variants":\(Self.variants)}
                """
            ).json
            let stored = (targets: created["targets"], variants: created["variants"])
            #expect(stored.targets?.arrayValue?.count == 2 && stored.variants?.arrayValue?.count == 2, "\(created)")

            let ndjson = try Fixture.expect(200, service.request("GET", "/v1/links/export?format=ndjson", key: fixture.key))
            #expect(ndjson.headers["Content-Type"] == "application/x-ndjson")
            let lines = ndjson.text.split(separator: "\n")
            #expect(lines.count == 1)
            let line = try JSONValue.parse(String(lines[0]))
            #expect(line["slug"] == .string("split") && line["targets"] == stored.targets && line["variants"] == stored.variants, "\(line)")

            let csv = try Fixture.expect(200, service.request("GET", "/v1/links/export", key: fixture.key))
            #expect(csv.headers["Content-Type"]?.hasPrefix("text/csv") == true && csv.text.contains(",targets,variants\r\n"))
            try Fixture.expect(204, service.request("DELETE", "/v1/links/\(created["id"]!.stringValue!)", key: fixture.key))
            let report = try Fixture.expect(
                200,
                HTTPTestClient.request(
                    port: service.port, method: "POST", path: "/v1/links/import?acknowledgeMoves=true&format=csv",
                    headers: [("Authorization", "Bearer \(fixture.key)"), ("Content-Type", "text/csv")], body: Array(csv.text.utf8),
                    timeout: 60)
            ).json
            let link = report["results"]?.arrayValue?.first?["link"]
            #expect(link?["targets"] == stored.targets && link?["variants"] == stored.variants, "\(report)")
        }
    }
}
