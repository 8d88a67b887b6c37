import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

@Suite("Domains and rules API")
struct RulesAPITests {
    func rules(_ fixture: Fixture) throws -> [JSONValue] {
        try fixture.service.request("GET", "/v1/domains/\(fixture.host)/rules", key: fixture.key).json["items"]?.arrayValue ?? []
    }

    @Test(
        "a rule list with mistakes is refused whole, with pointers, and changes nothing",
        arguments: [
            (#"[{"apps":["$IOS"],"path":"/w/{id}","destination":{"type":"nope"}}]"#, "/rules/0/destination/type"),
            (#"[{"apps":["$IOS"],"path":"/w/{x}","destination":{"type":"widgetDetail"}}]"#, "/rules/0/destination"),
            (#"[{"apps":["$IOS"],"path":"/a"},{"apps":["00000000-0000-0000-0000-000000000000"],"path":"/b"}]"#, "/rules/1/apps/0"),
            (#"[{"apps":["$IOS"],"path":"/w/{id"}]"#, "/rules/0/path"),
            (#"[{"apps":["$IOS"],"path":"/a","query":{"x":1}}]"#, "/rules/0/query/x"),
            (#"[{"apps":["$IOS"],"path":"/a","casesensitive":false}]"#, "/rules/0/casesensitive"),
            (#"[{"apps":["$IOS"],"path":"/a","exclude":true,"destination":{"type":"widgetDetail"}}]"#, "/rules/0/destination"),
            (#"[{"apps":[],"path":"/a"}]"#, "/rules/0/apps"),
            (#"[{"path":"/a"}]"#, "/rules/0/apps"),
            // The query's patterns had no length limit, unlike path and fragment (found by scripts/fuzz-api).
            (#"[{"apps":["$IOS"],"path":"/a","query":{"q":"$LONG"}}]"#, "/rules/0/query/q"),
            (#"[{"apps":["$IOS"],"path":"/a","query":"$LONG"}]"#, "/rules/0/query"),
        ])
    func invalidLists(list: String, pointer: String) throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let before = try rules(fixture)
            let body =
                #"{"rules":"#
                + list.replacingOccurrences(of: "$IOS", with: fixture.iosApp)
                .replacingOccurrences(of: "$LONG", with: String(repeating: "a", count: TextLimit.pattern.scalars + 1)) + "}"
            let response = try service.request("PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key, json: body)
            #expect(response.status == 422, "\(response.text)")
            let errors = try response.json["errors"]?.arrayValue ?? []
            #expect(errors.contains { $0["pointer"] == .string(pointer) }, "\(response.text)")
            #expect(try rules(fixture) == before)
        }
    }

    @Test func insertMoveUpdateDelete() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let inserted = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/domains/\(fixture.host)/rules", key: fixture.key,
                    json: #"{"apps":["\#(fixture.iosApp)"],"path":"/first","position":0}"#))
            let id = try #require(try inserted.json["id"]?.stringValue)
            #expect(inserted.headers["Location"] == "/v1/domains/\(fixture.host)/rules/\(id)")
            #expect(try rules(fixture).first?["id"] == .string(id))

            let moved = try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/domains/\(fixture.host)/rules/\(id)", key: fixture.key,
                    json: #"{"position":2,"comment":"moved"}"#, headers: [("If-Match", inserted.headers["ETag"]!)]))
            #expect(try moved.json["position"] == .number("2"))
            #expect(try moved.json["path"] == .string("/first"))
            #expect(try moved.json["comment"] == .string("moved"))
            #expect(try rules(fixture).map { $0["position"] } == [.number("0"), .number("1"), .number("2"), .number("3")])
            #expect(try rules(fixture)[2]["id"] == .string(id))

            let stale = try service.request(
                "DELETE", "/v1/domains/\(fixture.host)/rules/\(id)", key: fixture.key, headers: [("If-Match", inserted.headers["ETag"]!)])
            #expect(stale.status == 412)
            try Fixture.expect(204, service.request("DELETE", "/v1/domains/\(fixture.host)/rules/\(id)", key: fixture.key))
            #expect(try rules(fixture).count == 3)
        }
    }

    @Test func putKeepsIdsOfRulesSentBack() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let before = try rules(fixture)
            let reversed = JSONValue.object(["rules": .array(before.reversed())]).serialized
            let list = try service.request("GET", "/v1/domains/\(fixture.host)/rules", key: fixture.key)
            let stale = try service.request(
                "PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key, json: reversed, headers: [("If-Match", "\"v1\"")])
            #expect(stale.status == 412)
            let response = try Fixture.expect(
                200,
                service.request(
                    "PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key, json: reversed,
                    headers: [("If-Match", list.headers["ETag"]!)]))
            #expect(try response.json["items"]?.arrayValue?.map { $0["id"] } == before.reversed().map { $0["id"] })
        }
    }

    @Test func previewShowsTheFileAndSavesNothing() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let before = try rules(fixture)
            let response = try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/domains/\(fixture.host)/preview", key: fixture.key,
                    json: """
                        {"rules":[{"apps":["\(fixture.iosApp)"],"path":"/a/*"},{"apps":["\(fixture.iosApp)"],"path":"/a/*"}]}
                        """))
            let json = try response.json
            #expect(json["aasa"]?["applinks"]?["details"]?.arrayValue?.first?["components"]?.arrayValue?.count == 2)
            #expect(
                json["lint"]?.arrayValue?.contains { $0["severity"] == .string("warning") } == true, "the duplicate rule can never match")
            #expect(try rules(fixture) == before)
            let current = try Fixture.expect(
                200, service.request("POST", "/v1/domains/\(fixture.host)/preview", key: fixture.key, json: "{}"))
            #expect(try current.json["aasa"]?.serialized == service.application.catalog.entry(exactly: fixture.host)?.compiled.aasaJSON)
        }
    }

    @Test func oversizedFilesAreRefused() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let rule = #"{"apps":["\#(fixture.iosApp)"],"path":"/\#(String(repeating: "x", count: 900))/N"}"#
            let list = (0..<160).map { rule.replacingOccurrences(of: "/N", with: "/\($0)") }.joined(separator: ",")
            let response = try service.request("PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key, json: #"{"rules":[\#(list)]}"#)
            #expect(response.status == 422)
            #expect(response.text.contains("128 KB"))
        }
    }

    /// Issue 27: rules searching every URL for their middle (`/*a*a*…*bN`) fit under 128 KB by the thousand and
    /// made one click cost 0.1 s of CPU; what one URL can meet may weigh 1,024 (`CompiledDomain.maximumScanWeight`).
    @Test func rulesCostlyToMatchAreRefused() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let before = try rules(fixture)
            let list = (0..<200).map { #"{"apps":["\#(fixture.iosApp)"],"path":"/*a*a*a*a*a*a*a*a*b\#($0)"}"# }.joined(separator: ",")
            let response = try service.request("PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key, json: #"{"rules":[\#(list)]}"#)
            #expect(response.status == 422, "\(response.text)")
            // Each weighs 9 and every URL meets them all: the 114th crosses 1,024.
            #expect(try response.json["errors"]?.arrayValue?.first?["pointer"] == .string("/rules/113"), "\(response.text)")
            #expect(try rules(fixture) == before)
            // The same number of rules with literal prefixes and suffixes weighs nothing.
            let ordinary = (0..<200).map { #"{"apps":["\#(fixture.iosApp)"],"path":"/s\#($0)/*/x.pdf"}"# }.joined(separator: ",")
            #expect(
                try service.request("PUT", "/v1/domains/\(fixture.host)/rules", key: fixture.key, json: #"{"rules":[\#(ordinary)]}"#).status
                    == 200)
        }
    }

    @Test func domainsAreUniqueAcrossTheServiceAndInvisibleToOthers() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let other = try service.key(workspace: "other")
            #expect(try service.request("POST", "/v1/domains", key: other, json: #"{"hostname":"LINKS.example.com."}"#).status == 409)
            for (method, path) in [
                ("GET", "/v1/domains/\(fixture.host)"), ("GET", "/v1/domains/\(fixture.host)/rules"),
                ("PATCH", "/v1/domains/\(fixture.host)"), ("DELETE", "/v1/domains/\(fixture.host)"),
                ("POST", "/v1/domains/\(fixture.host)/preview"), ("GET", "/v1/domains/\(fixture.host)/aasa"),
                ("GET", "/v1/apps/\(fixture.iosApp)"), ("GET", "/v1/apps/\(fixture.iosApp)/destinations"),
            ] {
                let response = try service.request(method, path, key: other, json: method == "GET" || method == "DELETE" ? nil : "{}")
                #expect(response.status == 404, "\(method) \(path): \(response.status)")
            }
            #expect(try service.request("GET", "/v1/domains", key: other).json["items"]?.arrayValue?.isEmpty == true)
            #expect(try service.request("GET", "/v1/apps", key: other).json["items"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test(
        "hostnames are normalised and validated",
        arguments: [
            ("Links.Example.COM", 201), ("bücher.example", 201), ("*.example.net", 201),
            ("https://links.example.com", 422), ("links.example.com:8443", 422), ("127.0.0.1", 422), ("a..b", 422), ("", 422),
        ])
    func hostnames(hostname: String, status: Int) throws {
        try TestService.with { service in
            let key = try service.key()
            let response = try service.request("POST", "/v1/domains", key: key, json: #"{"hostname":"\#(hostname)"}"#)
            #expect(response.status == status, "\(hostname): \(response.text)")
            if status == 201 {
                let stored = try #require(try response.json["hostname"]?.stringValue)
                let path = "/v1/domains/" + hostname.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
                #expect(try service.request("GET", path, key: key).status == 200, "found again as written: \(hostname)")
                #expect(stored == stored.lowercased())
                #expect(stored.unicodeScalars.allSatisfy { $0.isASCII })
            }
        }
    }

    @Test func domainSettingsShapeTheFile() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let domain = try service.request("GET", "/v1/domains/\(fixture.host)", key: fixture.key)
            let patched = try Fixture.expect(
                200,
                service.request(
                    "PATCH", "/v1/domains/\(fixture.host)", key: fixture.key,
                    json: """
                        {"defaults":{"caseSensitive":false},"substitutionVariables":{"food":["pizza","tacos"]},"webcredentials":["\(fixture.iosApp)"],"legacyPaths":true}
                        """, headers: [("If-Match", domain.headers["ETag"]!)]))
            #expect(try patched.json["legacyPaths"] == .bool(true))
            try fixture.waitForCatalog { $0.catalog.entry(exactly: fixture.host)?.compiled.aasaJSON.contains("webcredentials") == true }
            let file = try service.request("GET", "/.well-known/apple-app-site-association", headers: [("Host", fixture.host)]).text
            #expect(file.contains(#""defaults":{"caseSensitive":false}"#))
            #expect(file.contains(#""substitutionVariables":{"food":["pizza","tacos"]}"#))
            #expect(file.contains(#""webcredentials":{"apps":["ABCDE12345.com.example.widgets"]}"#))
            #expect(file.contains(#""apps":[]"#))
            #expect(file.contains(#""paths":["#))
            let bad = try service.request(
                "PATCH", "/v1/domains/\(fixture.host)", key: fixture.key,
                json: #"{"defaults":{"caseSensitive":"no"},"webFallbackUrl":"javascript:alert(1)"}"#)
            #expect(bad.status == 422)
            #expect(try bad.json["errors"]?.arrayValue?.count == 2)
        }
    }

    @Test func appsUsedByRulesCannotBeDeleted() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            #expect(try service.request("DELETE", "/v1/apps/\(fixture.iosApp)", key: fixture.key).status == 409)
            #expect(try service.request("DELETE", "/v1/apps/\(fixture.iosApp)/destinations/widgetDetail", key: fixture.key).status == 409)
        }
    }

    @Test func theAuditLogRecordsWhoChangedWhat() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let audit = try Fixture.expect(200, service.request("GET", "/v1/audit?resourceType=rules", key: fixture.key))
            let entries = try #require(try audit.json["items"]?.arrayValue)
            #expect(entries.first?["action"] == .string("replace"))
            #expect(entries.first?["resourceId"] == .string(fixture.host))
            #expect(entries.first?["after"]?.arrayValue?.count == 3)
            #expect(entries.first?["keyId"]?.stringValue != nil)
            #expect(try service.request("GET", "/v1/audit", key: try service.key(workspace: "other")).json["items"]?.arrayValue?.count == 1)
        }
    }
}
