import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Formulas in CSV (OWASP CSV injection): every CSV linkd writes starts no cell with what a spreadsheet runs, and
/// an export imported back gives the exact values (`CSVFormulaEscape`, docs/LINKS-IMPORT.md).
@Suite("Formulas in CSV")
struct CSVFormulaTests {
    /// What makes Excel, LibreOffice or Google Sheets read a cell as a formula when it comes first.
    static let triggers: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    /// Values a spreadsheet would run, and values that start with the quote the escape uses.
    static let hostile = [
        #"=HYPERLINK("http://evil.com","x")"#, "+1+1", "-2+3", "@SUM(A1:A2)", "\tx", "\r=x", "=", "'", "'=x", "''=x", "'''+1", "'abc",
        "''", "a=b", "'\t", "- 1",
    ]

    static func runnable(_ cell: String) -> Bool { cell.first.map(triggers.contains) ?? false }

    /// The records of a CSV text, read as the import reads them.
    static func records(_ text: String) throws -> [[String]] {
        try CSVReader.records(Array(text.utf8), maxColumns: 64, maxFieldBytes: 1 << 16)
    }

    @Test func escapingIsReversibleAndLeavesNothingRunnable() {
        let alphabet: [Character] = ["'", "=", "+", "-", "@", "\t", "\r", "a", " "]
        var values = [""]
        for _ in 0..<4 { values += values.flatMap { value in alphabet.map { value + String($0) } } }
        for value in Set(values) {
            let written = CSVFormulaEscape.neutralised(value)
            #expect(!Self.runnable(written), "\(value.debugDescription) written as \(written.debugDescription)")
            #expect(CSVFormulaEscape.restored(written) == value, "\(value.debugDescription)")
        }
        #expect(CSVFormulaEscape.neutralised("=1+1") == "'=1+1")
        #expect(CSVFormulaEscape.neutralised("'=1+1") == "''=1+1")
        #expect(CSVFormulaEscape.neutralised("'abc") == "'abc")
        #expect(CSVFormulaEscape.neutralised("plain") == "plain")
        // A file written by hand keeps a quote that escapes nothing.
        #expect(CSVFormulaEscape.restored("'abc") == "'abc")
        #expect(CSVFormulaEscape.restored("'") == "'")
    }

    @Test func writerQuotesAndNeutralises() throws {
        var out: [UInt8] = []
        CSVWriter.append(["=1,2", "\r=x", "-3", "ok"], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "\"'=1,2\",\"'\r=x\",'-3,ok\r\n")
    }

    /// Links whose names, campaigns and previews a spreadsheet would run: the export neutralises every cell, and
    /// importing the export back gives every value exactly.
    @Test func linksExportIsInertAndImportsBackExactly() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            func text(_ value: String) -> String { JSONValue.string(value).serialized }
            let items = Self.hostile.enumerated().map { index, value in
                """
                {"domain":"links.example.com","slug":"h\(index)","url":"https://www.example.com/\(index)","name":\(text(value)),
                 "campaign":{"source":\(text(value)),"medium":\(text(value)),"campaign":"c","term":\(text(value)),"content":\(text(value))},
                 "preview":{"title":\(text(value)),"description":\(text(value))},"tags":[\(text(value))]}
                """
            }
            let created = try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/links/bulk?acknowledgeMoves=true", key: fixture.key,
                    json: "[" + items.joined(separator: ",") + "]")
            ).json
            #expect(created["created"] == .number(String(Self.hostile.count)), "\(created)")
            func fields(_ link: JSONValue) -> JSONValue {
                .object((link.objectMembers ?? []).filter { !["id", "createdAt", "updatedAt"].contains($0.key) })
            }
            let before = try #require(created["results"]?.arrayValue).map(fields)

            let export = try Fixture.expect(200, service.request("GET", "/v1/links/export", key: fixture.key))
            let records = try Self.records(export.text)
            #expect(records.count == Self.hostile.count + 1)
            for record in records {
                for cell in record { #expect(!Self.runnable(cell), "a runnable cell \(cell.debugDescription)") }
            }
            let header = try #require(records.first)
            let name = try #require(header.firstIndex(of: "name"))
            #expect(Set(records.dropFirst().map { CSVFormulaEscape.restored($0[name]) }) == Set(Self.hostile))

            for link in try #require(created["results"]?.arrayValue) {
                try Fixture.expect(204, service.request("DELETE", "/v1/links/\(link["id"]!.stringValue!)", key: fixture.key))
            }
            let report = try Fixture.expect(
                200,
                HTTPTestClient.request(
                    port: service.port, method: "POST", path: "/v1/links/import?acknowledgeMoves=true&format=csv",
                    headers: [("Authorization", "Bearer \(fixture.key)"), ("Content-Type", "text/csv")], body: Array(export.text.utf8),
                    timeout: 60)
            ).json
            #expect(report["created"] == .number(String(Self.hostile.count)), "\(report)")
            let after = try #require(report["results"]?.arrayValue).compactMap { $0["link"] }.map(fields)
            #expect(after.map(\.serialized).sorted() == before.map(\.serialized).sorted())
        }
    }

    /// `utm_source` values anyone plants with a click, and a link's name, in the analytics CSV: neutralised there too.
    @Test func analyticsCSVIsInert() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try fixture.createLink(
                """
                {"domain":"links.example.com","slug":"spring","url":"https://www.example.com/spring","name":"=cmd|' /C calc'!A0"}
                """)
            let planted = [#"=HYPERLINK("http://evil.com","x")"#, "+1+1", "-2+3", "@SUM(A1)", "\tx", "'=x"]
            for value in planted {
                let query = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let response = try service.request(
                    "GET", "/spring?utm_source=\(query)",
                    headers: [("Host", "links.example.com"), ("User-Agent", HitsEndToEndTests.desktop)])
                #expect(response.status == 302, "\(value.debugDescription): \(response.status)")
            }
            #expect(eventually { service.application.hits.counters.written == planted.count })
            for path in [
                "/v1/analytics/top?dimension=utm_source&format=csv", "/v1/analytics/top?dimension=link&format=csv",
                "/v1/analytics/timeseries?interval=day&groupBy=utm_source&format=csv",
            ] {
                let csv = try Fixture.expect(200, service.request("GET", path, key: fixture.key))
                let records = try Self.records(csv.text)
                #expect(records.count > 1, "\(path): \(csv.text)")
                for record in records {
                    for cell in record { #expect(!Self.runnable(cell), "\(path): a runnable cell \(cell.debugDescription)") }
                }
            }
            let sources = try Self.records(
                Fixture.expect(
                    200,
                    service.request(
                        "GET", "/v1/analytics/top?dimension=utm_source&format=csv",
                        key: fixture.key)
                ).text)
            #expect(Set(sources.dropFirst().map { CSVFormulaEscape.restored($0[0]) }) == Set(planted))
        }
    }
}
