import Foundation
import LinkKit
@testable import LinkService
import Postgres
import Testing
import TestSupport

/// JSON numbers linkd accepts: one range through every door (docs/LINKS.md, "Dates and numbers"), kept exactly as
/// sent; and rows holding a number beyond it (written by SQL) read, listed, exported, changed and deleted like any
/// other.
@Suite("Numbers through every door")
struct NumberInputTests {
    /// Beyond a double's magnitude, or beyond what PostgreSQL's `numeric` (the audit log's `jsonb`) holds.
    static let outOfRange = [
        "1e999999", "-1e309", "1.8e308", String(repeating: "9", count: 310), "1e-999999", "0.0e-99999",
        "0e999999999999", "1." + String(repeating: "0", count: 16_384), "1E+400",
    ]
    /// Within it, and echoed byte for byte.
    static let inRange = [
        "1e308", "-1.7976931348623157e308", "1e-400", "0e16383", "12345678901234567890123456789", "0.10000000000000000000001",
        "1E+2", "-0", "4.9e-324", "1.5e-16382",
    ]

    private static func send(
        _ fixture: Fixture, _ method: String, _ path: String, _ contentType: String, _ body: String
    ) throws -> TestResponse {
        try fixture.service.request(method, path, key: fixture.key, body: body, headers: [("Content-Type", contentType)])
    }

    @Test func aNumberOutsideTheRangeIsRefusedAtItsPointerThroughEveryDoor() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let kept = try fixture.createLink(#"{"domain":"links.example.com","slug":"kept","url":"https://www.example.com"}"#)
            let id = try kept.json["id"]!.stringValue!
            for number in Self.outOfRange {
                let data = #"{"a":[1,{"x":\#(number)}]}"#
                try fixture.expectRefused(
                    "POST", "/v1/links?acknowledgeMoves=true",
                    #"{"domain":"links.example.com","url":"https://www.example.com","data":\#(data)}"#,
                    pointers: ["/data/a/1/x"])
                try fixture.expectRefused("PATCH", "/v1/links/\(id)", #"{"data":\#(data)}"#, pointers: ["/data/a/1/x"])
                // Any body, any member: a number is read once for every resource.
                try fixture.expectRefused("PATCH", "/v1/links/\(id)", #"{"maxClicks":\#(number)}"#, pointers: ["/maxClicks"])
                try fixture.expectRefused(
                    "POST", "/v1/links/build",
                    #"{"app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":\#(number)}}}"#,
                    pointers: ["/destination/params/id"])
                let bulk = try Fixture.expect(
                    200,
                    Self.send(
                        fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json",
                        #"[{"domain":"links.example.com","url":"https://www.example.com","data":\#(data)}]"#)
                ).json
                #expect(bulk["created"] == .number("0"), "\(number.prefix(40)): \(bulk)")
                #expect(
                    bulk["results"]?.arrayValue?.first?["error"]?["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } == [
                        "/0/data/a/1/x"
                    ])
                // A CSV cell holds 16 KiB at most.
                guard number.utf8.count < 1000 else { continue }
                let csvData = "\"" + data.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                let csv = try Fixture.expect(
                    200,
                    Self.send(
                        fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=csv", "text/csv",
                        "domain,url,data\nlinks.example.com,https://www.example.com,\(csvData)\n")
                ).json
                #expect(csv["created"] == .number("0"), "\(number.prefix(40)): \(csv)")
                #expect(csv["results"]?.arrayValue?.first?["problems"]?.arrayValue?.compactMap { $0["column"]?.stringValue } == ["data"])
            }
            let links = try Fixture.expect(200, service.request("GET", "/v1/links", key: fixture.key)).json
            #expect(links["items"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } == ["kept"])
        }
    }

    @Test func aNumberInTheRangeIsKeptExactlyThroughEveryDoor() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let data = #"{"n":[\#(Self.inRange.joined(separator: ","))]}"#
            let created = try fixture.createLink(#"{"domain":"links.example.com","url":"https://www.example.com","data":\#(data)}"#)
            #expect(try created.json["data"]?.serialized == data)
            let id = try created.json["id"]!.stringValue!
            #expect(try Fixture.expect(200, service.request("GET", "/v1/links/\(id)", key: fixture.key)).json["data"]?.serialized == data)
            let patched = try Fixture.expect(
                200, service.request("PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"name":"n","data":\#(data)}"#))
            #expect(try patched.json["data"]?.serialized == data)
            let bulk = try Fixture.expect(
                200,
                Self.send(
                    fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json",
                    #"[{"domain":"links.example.com","url":"https://www.example.com","data":\#(data)}]"#)
            ).json
            #expect(bulk["results"]?.arrayValue?.first?["data"]?.serialized == data)
            let csvData = "\"" + data.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let csv = try Fixture.expect(
                200,
                Self.send(
                    fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=csv", "text/csv",
                    "domain,url,data\nlinks.example.com,https://www.example.com,\(csvData)\n")
            ).json
            #expect(csv["results"]?.arrayValue?.first?["link"]?["data"]?.serialized == data)
            try Fixture.expect(204, service.request("DELETE", "/v1/links/\(id)", key: fixture.key))
            let audit = try Fixture.expect(200, service.request("GET", "/v1/audit?resourceType=link", key: fixture.key)).json
            #expect(audit["items"]?.arrayValue?.contains { $0["action"] == .string("delete") && $0["resourceId"] == .string(id) } == true)
        }
    }

    @Test func aRowHoldingANumberOutsideTheRangeBreaksNothing() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let created = try fixture.createLink(
                #"{"domain":"links.example.com","slug":"big","url":"https://www.example.com","data":{"x":1}}"#)
            let id = try created.json["id"]!.stringValue!
            let stored = #"{"x":1e999999,"y":[-1e-999999,2]}"#
            try service.application.pool.withConnection { connection in
                try connection.execute("UPDATE links SET data = \(stored)::json WHERE id = \(UUID(uuidString: id)!)")
            }
            let list = try Fixture.expect(200, service.request("GET", "/v1/links", key: fixture.key)).json
            #expect(list["items"]?.arrayValue?.first?["data"]?.serialized == stored)
            let export = try Fixture.expect(200, service.request("GET", "/v1/links/export", key: fixture.key)).text
            #expect(export.contains("1e999999"))
            #expect(try Fixture.expect(200, service.request("GET", "/v1/links/\(id)", key: fixture.key)).json["data"]?.serialized == stored)
            let patched = try Fixture.expect(
                200, service.request("PATCH", "/v1/links/\(id)", key: fixture.key, json: #"{"name":"renamed"}"#))
            #expect(try patched.json["data"]?.serialized == stored)
            try Fixture.expect(204, service.request("DELETE", "/v1/links/\(id)", key: fixture.key))
            // The audit log keeps what jsonb cannot hold as a number as its text.
            let audit = try Fixture.expect(200, service.request("GET", "/v1/audit?resourceType=link", key: fixture.key)).json
            let delete = try #require(audit["items"]?.arrayValue?.first { $0["action"] == .string("delete") })
            #expect(delete["before"]?["data"]?["x"] == .string("1e999999"))
            #expect(delete["before"]?["data"]?["y"] == .array([.string("-1e-999999"), .number("2")]))
        }
    }
}
