import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Lengths are decided in code points, as PostgreSQL's `length()` counts them, not in graphemes (`String.count`):
/// over-long text is a 422 with a pointer, never a 500 from a constraint, never stored.
@Suite("Text limits in code points, over the API")
struct TextLimitAPITests {
    /// One grapheme: `e` and `count` combining acute accents (U+0301, two UTF-8 bytes each).
    static func grapheme(combining count: Int) -> String { "e" + String(repeating: "\u{0301}", count: count) }

    @Test func lengthsCountCodePointsAsTheDatabaseDoes() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            // One grapheme of 251 code points: passed a 200-character check, then broke `length(name) <= 200` (500).
            try fixture.expectRefused(
                "POST", "/v1/keys", #"{"name":"\#(Self.grapheme(combining: 250))","scope":"read"}"#, pointers: ["/name"])
            // One grapheme of 150,001 code points (300 KB) was accepted as a team name.
            try fixture.expectRefused(
                "POST", "/v1/teams", #"{"teamId":"LONG000001","name":"\#(Self.grapheme(combining: 150_000))"}"#,
                pointers: ["/name"])
            // Exactly at the limit, in multi-byte characters: accepted.
            let full = String(repeating: "é", count: 200)
            let created = try service.request("POST", "/v1/keys", key: fixture.key, json: #"{"name":"\#(full)","scope":"read"}"#)
            #expect(created.status == 201, "\(created.text)")
            #expect(try created.json["name"]?.stringValue == full)
            // `linkd keys create --workspace`: `CHECK (length(name) BETWEEN 1 AND 100)`.
            #expect(throws: ServiceError.self) { try service.key(workspace: Self.grapheme(combining: 100)) }
            #expect(try service.key(workspace: String(repeating: "é", count: 100)).hasPrefix("lk_"))
            // Fields that had no bound at all.
            let long = String(repeating: "a", count: 1025)
            try fixture.expectRefused(
                "POST", "/v1/domains/\(fixture.host)/rules",
                #"{"apps":["\#(fixture.iosApp)"],"query":{"\#(String(repeating: "k", count: 257))":"\#(long)"}}"#,
                pointers: ["/query/" + String(repeating: "k", count: 257)])
            try fixture.expectRefused(
                "POST", "/v1/domains/\(fixture.host)/rules", #"{"apps":["\#(fixture.iosApp)"],"query":"\#(long)"}"#,
                pointers: ["/query"])
            try fixture.expectRefused(
                "POST", "/v1/domains", #"{"hostname":"long.example.com","substitutionVariables":{"v":["\#(long)"]}}"#,
                pointers: ["/substitutionVariables/v/0"])
            try fixture.expectRefused(
                "POST", "/v1/apps/\(fixture.iosApp)/destinations",
                #"{"name":"d","params":{"p":{"type":"enum","values":["\#(String(repeating: "v", count: 1001))"]}}}"#,
                pointers: ["/params/p/values/0"])
        }
    }
}
