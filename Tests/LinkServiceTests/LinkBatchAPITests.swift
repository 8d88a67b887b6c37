import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `POST /v1/links/bulk`, `POST /v1/links/import` and `GET /v1/links/export`, over a real server and database.
@Suite("Links in bulk: create, import, export")
struct LinkBatchAPITests {
    /// A request with a body of `contentType`.
    private static func send(
        _ fixture: Fixture, _ method: String, _ path: String, _ contentType: String, _ body: String,
        key: String? = nil
    ) throws -> TestResponse {
        try HTTPTestClient.request(
            port: fixture.service.port, method: method, path: path,
            headers: [("Authorization", "Bearer \(key ?? fixture.key)"), ("Content-Type", contentType)],
            body: Array(body.utf8), timeout: 60)
    }

    private static func slugs(_ fixture: Fixture, key: String? = nil) throws -> [String] {
        let response = try Fixture.expect(200, fixture.service.request("GET", "/v1/links?limit=200", key: key ?? fixture.key))
        return try response.json["items"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } ?? []
    }

    /// The pointers of an item's error.
    private static func pointers(_ result: JSONValue?) -> [String] {
        result?["error"]?["errors"]?.arrayValue?.compactMap { $0["pointer"]?.stringValue } ?? []
    }

    @Test func bulkCreatesTheGoodItemsAndAnswersEachBadOneAtItsPointer() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let other = try Fixture(service, workspace: "other", host: "other.example.com")
            let typed = #""app":"\#(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":42}}"#
            // Links to apps on a domain of their own: links to web pages and to apps stand apart (docs/LINKS.md).
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"apps.example.com"}"#))
            let body = """
                [{"domain":"links.example.com","slug":"one","url":"https://www.example.com/1","tags":["bulk"]},
                 {"domain":"links.example.com","slug":"bad","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":0}}},
                 {"domain":"apps.example.com",\(typed),"campaign":{"campaign":"spring"}},
                 {"domain":"other.example.com","slug":"theirs","url":"https://www.example.com"},
                 {"domain":"links.example.com","slug":"one","url":"https://www.example.com/again"},
                 "not an object",
                 {"domain":"links.example.com","slug":"nul","url":"https://www.example.com","name":"a\\u0000b"},
                 {"domain":"links.example.com","slug":"v1/x","url":"https://www.example.com"}]
                """
            let response = try Fixture.expect(
                200, Self.send(fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json", body))
            let answer = try response.json
            #expect(answer["created"] == .number("2") && answer["refused"] == .number("6"), "\(response.text)")
            let results = try #require(answer["results"]?.arrayValue)
            #expect(results.count == 8)
            #expect(results[0]["shortLink"] == .string("https://links.example.com/one"))
            #expect(Self.pointers(results[1]) == ["/1/destination/params/id"])
            #expect(results[2]["destination"]?["params"]?["id"] == .number("42"))
            #expect(results[2]["slug"]?.stringValue?.count == 7)
            #expect(Self.pointers(results[3]) == ["/3/domain"])
            #expect(results[4]["error"]?["status"] == .number("409") && Self.pointers(results[4]) == ["/4/slug"])
            #expect(Self.pointers(results[5]) == ["/5"])
            #expect(Self.pointers(results[6]) == ["/6/name"])
            #expect(Self.pointers(results[7]) == ["/7/slug"])
            // Only the good items were created, in the order of the items; the other workspace has nothing.
            #expect(try Self.slugs(fixture) == ["one", results[2]["slug"]!.stringValue!])
            #expect(try Self.slugs(other).isEmpty)
            let created = try Fixture.expect(200, service.request("GET", "/v1/links/\(results[0]["id"]!.stringValue!)", key: fixture.key))
            #expect(try created.json["tags"] == .array([.string("bulk")]))
            // One audit entry for the request.
            let audit = try Fixture.expect(200, service.request("GET", "/v1/audit?resourceType=link", key: fixture.key))
            let entries = try #require(try audit.json["items"]?.arrayValue)
            #expect(
                entries.count == 1 && entries.first?["resourceId"] == .string("bulk") && entries.first?["after"]?["created"] == .number("2")
            )

            // A slug taken since: 409 at its pointer, the rest created.
            let again = try Fixture.expect(
                200,
                Self.send(
                    fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json",
                    """
                    [{"domain":"links.example.com","slug":"two","url":"https://www.example.com/2"},
                     {"domain":"links.example.com","slug":"one","url":"https://www.example.com/1"}]
                    """)
            ).json
            #expect(again["created"] == .number("1"))
            #expect(again["results"]?.arrayValue?.dropFirst(1).first?["error"]?["status"] == .number("409"))
            #expect(Self.pointers(again["results"]?.arrayValue?.dropFirst(1).first) == ["/1/slug"])
        }
    }

    @Test func bulkTakesNDJSONAndLargeBodies() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let ndjson = """
                {"domain":"links.example.com","slug":"n1","url":"https://www.example.com/1"}

                {"domain":"links.example.com","slug":"n2",
                {"domain":"links.example.com","slug":"n3","url":"https://www.example.com/3"}\r

                """
            let answer = try Fixture.expect(
                200, Self.send(fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/x-ndjson", ndjson)
            ).json
            let results = try #require(answer["results"]?.arrayValue)
            #expect(results.count == 3 && answer["created"] == .number("2"))
            #expect(results[1]["error"]?["status"] == .number("400") && Self.pointers(results[1]) == ["/1"])
            #expect(results[1]["error"]?["detail"]?.stringValue?.hasPrefix("Line 3") == true)
            #expect(try Self.slugs(fixture) == ["n1", "n3"])

            // Beyond the 1 MiB of other requests: 10,000 links with generated slugs, in one request.
            let many = (0..<10_000).map {
                #"{"domain":"links.example.com","url":"https://www.example.com/page/\#($0)","name":"Link number \#($0) of the bulk test","tags":["a","b"]}"#
            }
            let body = "[" + many.joined(separator: ",") + "]"
            #expect(body.utf8.count > 1 << 20)
            let big = try Fixture.expect(200, Self.send(fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json", body))
                .json
            #expect(big["created"] == .number("10000"))
            let slugs = Set(big["results"]?.arrayValue?.compactMap { $0["slug"]?.stringValue } ?? [])
            #expect(slugs.count == 10_000)
            // Listed in the order of the items.
            let first = try Fixture.expect(200, service.request("GET", "/v1/links?limit=5&q=Link%20number", key: fixture.key)).json
            #expect(
                first["items"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == (0..<5).map { "Link number \($0) of the bulk test" })

            // Refused as a whole: not an array, too many items, another media type.
            #expect(
                try Self.send(
                    fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json", #"{"domain":"links.example.com"}"#
                ).status == 422)
            let tooMany = "[" + Array(repeating: "{}", count: 100_001).joined(separator: ",") + "]"
            #expect(try Self.send(fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json", tooMany).status == 422)
            #expect(try Self.send(fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "text/plain", "[]").status == 415)
            #expect(
                try Self.send(
                    fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json", "[",
                    key: try service.key(workspace: "acme", scope: .read)
                ).status == 403)
        }
    }

    /// A node writes one bulk request at a time: another, while the first is written, is a 503 saying so.
    @Test func anotherBulkRequestWaitsItsTurn() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let many =
                "[" + (0..<30_000).map { #"{"domain":"links.example.com","url":"https://www.example.com/\#($0)"}"# }.joined(separator: ",")
                + "]"
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var first: TestResponse?
            DispatchQueue.global().async {
                first = try? Self.send(fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json", many)
                done.signal()
            }
            var refused: TestResponse?
            while done.wait(timeout: .now() + .milliseconds(100)) == .timedOut, refused == nil {
                let small = try Self.send(
                    fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json",
                    #"[{"domain":"links.example.com","url":"https://www.example.com"}]"#)
                if small.status == 503 { refused = small } else { #expect(small.status == 200) }
            }
            if refused != nil { done.wait() }
            let created = try first?.json["created"]
            #expect(first?.status == 200 && created == .number("30000"))
            #expect(
                refused?.headers["Retry-After"] == "5" && refused?.text.contains("Another bulk request") == true,
                "\(refused?.text ?? "never refused")")
        }
    }

    /// A Takeout file as Firebase writes it: the guide's header, a quoted comma, empty columns, an archived row, a deep
    /// link the domain's rules type and one they do not (nor one whose destination they cannot build), a short link
    /// on another workspace's domain.
    static let takeout = #"""
        Short link,Deep link (link),Android package name (apn),Android fallback link (afl),Android minimum package version code (amv),iOS bundle ID (ibi),iOS fallback link (ifl),iOS custom scheme (ius),iOS iPad fallback link (ipfl),iOS iPad bundle ID (ipbi),iOS App Store ID (isi),iOS minimum version (imv),Enable forced redirect (efr),Desktop fallback link (ofl),Social title (st),Social description (sd),Social image link (si),utm_source,utm_medium,utm_campaign,utm_term,utm_content,iTunes Connect (at),iTunes Connect (ct),iTunes Connect (mt),iTunes Connect (pt),Archived,Link name,Creation timestamp
        https://links.example.com/spring,https://www.example.com/widget/42?tab=reviews,com.example.widgets,,,com.example.widgets,https://www.example.com/ios,,,,1234567890,,false,https://www.example.com/desktop,"Spring, at last","Big, bold, ""new""",https://cdn.example.com/s.png,newsletter,email,spring24,,,,,,,false,Spring link,2024-03-01T09:30:00Z
        https://links.example.com/about,https://www.example.com/about,,,,,,,,,,,,,,,,,,,,,,,,,,,
        https://links.example.com/old,https://www.example.com/widget/7,,,,,,,,,,,,,,,,,,,,,,,,,true,Old one,2023-01-02 03:04:05
        https://other.example.com/theirs,https://www.example.com/widget/1,,,,,,,,,,,,,,,,,,,,,,,,,,,
        https://links.example.com/bad,https://www.example.com/x,,not a url,,,,,,,,,,,,,,,,,,,,,,,,,
        https://links.example.com/zero,https://www.example.com/widget/0,,,,,,,,,,,,,,,,,,,,,,,,,,,
        """#

    @Test func firebaseImportReportsEveryRowAndADryRunSavesNothing() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let other = try Fixture(service, workspace: "other", host: "other.example.com")
            let dry = try Fixture.expect(
                200,
                Self.send(fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=firebase&dryRun=true", "text/csv", Self.takeout)
            ).json
            #expect(
                dry["dryRun"] == .bool(true) && dry["wouldCreate"] == .number("2") && dry["created"] == .number("0")
                    && dry["refused"] == .number("4"), "\(dry)")
            #expect(
                dry["results"]?.arrayValue?.dropFirst(0).first?["status"] == .string("would-create")
                    && dry["results"]?.arrayValue?.dropFirst(0).first?["link"]?["id"] == nil)
            #expect(try Self.slugs(fixture).isEmpty)
            #expect(try service.request("GET", "/v1/audit?resourceType=link", key: fixture.key).json["items"]?.arrayValue?.isEmpty == true)

            let report = try Fixture.expect(
                200, Self.send(fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=firebase", "text/csv", Self.takeout)
            ).json
            #expect(report["created"] == .number("2") && report["refused"] == .number("4"), "\(report)")
            let results = try #require(report["results"]?.arrayValue)
            #expect(results.map { $0["row"] } == (2...7).map { .number(String($0)) })
            // Typed by the rule /widget/{id} (its query item `tab` is matched, not captured), with the row's other fields.
            let spring = try #require(results[0]["link"])
            #expect(spring["app"] == .string(fixture.iosApp))
            #expect(spring["destination"] == .object(["type": .string("widgetDetail"), "params": .object(["id": .number("42")])]))
            #expect(spring["url"] == nil)
            #expect(
                spring["preview"]?["title"] == .string("Spring, at last")
                    && spring["preview"]?["description"] == .string(#"Big, bold, "new""#))
            #expect(spring["preview"]?["imageUrl"] == .string("https://cdn.example.com/s.png"))
            #expect(
                spring["fallbacks"]
                    == .object(["ios": .string("https://www.example.com/ios"), "desktop": .string("https://www.example.com/desktop")]))
            #expect(
                spring["campaign"]
                    == .object(["source": .string("newsletter"), "medium": .string("email"), "campaign": .string("spring24")]))
            #expect(spring["name"] == .string("Spring link") && spring["expiresAt"] == nil)
            // Firebase sent a phone to `ifl` instead of the App Store: the link goes on doing so.
            #expect(spring["skipStore"] == .bool(true))
            // No rule opens an app for /about: a web page, which cannot stand beside links to apps (a phone with the app
            // would open the app): refused, saying why.
            #expect(results[1]["status"] == .string("refused"))
            #expect(results[1].serialized.contains("would lead to a web page"), "\(results[1])")
            // Archived: expired at its creation.
            #expect(results[2]["link"]?["expiresAt"] == .string("2023-01-02T03:04:05.000Z"))
            // Another workspace's domain: refused at the short link, nothing created there.
            #expect(results[3]["status"] == .string("refused"))
            #expect(results[3]["problems"]?.arrayValue?.dropFirst(0).first?["column"] == .string("short link"))
            #expect(try Self.slugs(other).isEmpty)
            // A bad cell, named by its column.
            #expect(results[4]["problems"]?.arrayValue?.dropFirst(0).first?["column"] == .string("afl"))
            // The rule opens the app at /widget/0 but cannot build its destination (id is at least 1): a web page.
            #expect(results[5]["status"] == .string("refused") && results[5].serialized.contains("would lead to a web page"))
            #expect(try Self.slugs(fixture) == ["spring", "old"])

            // Imported again: every slug is taken now, each refused at the short link with a 409's detail.
            let again = try Fixture.expect(
                200, Self.send(fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=firebase", "text/csv", Self.takeout)
            ).json
            #expect(
                again["created"] == .number("0")
                    && again["results"]?.arrayValue?.dropFirst(0).first?["problems"]?.arrayValue?.dropFirst(0).first?["column"]
                        == .string("short link")
            )
            #expect(
                again["results"]?.arrayValue?.dropFirst(0).first?["problems"]?.arrayValue?.dropFirst(0).first?["detail"]?.stringValue?
                    .contains("already exists") == true)

            // Files refused whole.
            #expect(
                try Self.send(
                    fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=firebase", "text/csv",
                    "Clicks (clicks),Other (other)\nx,y\n"
                ).status == 400)
            #expect(
                try Self.send(fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=firebase", "text/csv", "a,\"b\n").status
                    == 400)
            #expect(
                try Self.send(fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=firebase", "application/json", "[]").status
                    == 415)
            #expect(
                try Self.send(fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=nope", "text/csv", Self.takeout).status == 400
            )
            #expect(try Self.send(fixture, "POST", "/v1/links/import", "text/csv", Self.takeout).status == 400)
        }
    }

    @Test func anExportImportsBackAsTheSameLinks() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            try Fixture.expect(201, service.request("POST", "/v1/domains", key: fixture.key, json: #"{"hostname":"apps.example.com"}"#))
            let body = """
                [{"domain":"links.example.com","slug":"a/b","url":"https://www.example.com/a","tags":["x,y","z"],"name":" Spaced, \\"quoted\\"\\nline ",
                  "campaign":{"source":"s","medium":"m","campaign":"c","term":"t","content":"k"},"fallbacks":{"ios":"https://www.example.com/i","ipad":"https://www.example.com/p","android":"https://www.example.com/an","desktop":"https://www.example.com/d"},
                  "preview":{"title":"T","description":"D","imageUrl":"https://cdn.example.com/i.png"},"expiresAt":"2030-01-01T00:00:00Z","maxClicks":5,"data":{"k":[1,"two"]}},
                 {"domain":"apps.example.com","slug":"typed","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":7,"tab":"info"}},
                  "fallbacks":{"ios":"https://www.example.com/i"},"skipStore":true},
                 {"domain":"links.example.com","slug":"plain","url":"https://www.example.com/p"}]
                """
            let created = try Fixture.expect(
                200, Self.send(fixture, "POST", "/v1/links/bulk?acknowledgeMoves=true", "application/json", body)
            ).json
            #expect(created["created"] == .number("3"), "\(created)")
            func fields(_ link: JSONValue) -> JSONValue {
                .object((link.objectMembers ?? []).filter { !["id", "createdAt", "updatedAt"].contains($0.key) })
            }
            let before = try #require(created["results"]?.arrayValue).map(fields)
            #expect(before.map { $0["skipStore"] } == [.bool(false), .bool(true), .bool(false)])

            // Two pages of CSV, each with its header row.
            let first = try Fixture.expect(200, service.request("GET", "/v1/links/export?limit=2", key: fixture.key))
            #expect(first.headers["Content-Type"]?.hasPrefix("text/csv") == true)
            let next = try #require(first.headers["Link"]?.split(separator: "<").last?.split(separator: ">").first.map(String.init))
            let second = try Fixture.expect(200, service.request("GET", next, key: fixture.key))
            #expect(second.headers["Link"] == nil)
            #expect(first.text.hasPrefix("domain,slug,url,app,destinationType,params,") && second.text.hasPrefix("domain,slug,"))
            let filtered = try Fixture.expect(200, service.request("GET", "/v1/links/export?q=plain", key: fixture.key))
            #expect(filtered.text.split(separator: "\r\n").count == 2)

            // Deleted, then imported back from the export: the same links.
            for link in try #require(created["results"]?.arrayValue) {
                try Fixture.expect(204, service.request("DELETE", "/v1/links/\(link["id"]!.stringValue!)", key: fixture.key))
            }
            let file = first.text + second.text.split(separator: "\r\n", maxSplits: 1).last.map { String($0) }!
            let report = try Fixture.expect(
                200, Self.send(fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=csv", "text/csv", file)
            ).json
            #expect(report["created"] == .number("3"), "\(report)")
            let after = try #require(report["results"]?.arrayValue).compactMap { $0["link"] }.map(fields)
            #expect(after == before)

            // A plain file: a default domain, a generated slug, problems by column.
            let plain = """
                slug,url,tags,maxClicks,unknown,skipStore
                ,https://www.example.com/gen,"spring, mail",3,x,TRUE
                p2,http://www.example.com,,zero,,maybe
                """
            let answer = try Fixture.expect(
                200,
                Self.send(fixture, "POST", "/v1/links/import?acknowledgeMoves=true&format=csv&domain=LINKS.example.com", "text/csv", plain)
            ).json
            #expect(
                answer["created"] == .number("1")
                    && answer["ignoredColumns"] == .array([.object(["column": .number("5"), "name": .string("unknown")])]))
            #expect(answer["results"]?.arrayValue?.dropFirst(0).first?["link"]?["tags"] == .array([.string("spring"), .string("mail")]))
            #expect(answer["results"]?.arrayValue?.dropFirst(0).first?["link"]?["skipStore"] == .bool(true))
            let columns = answer["results"]?.arrayValue?.dropFirst(1).first?["problems"]?.arrayValue?.compactMap {
                $0["column"]?.stringValue
            }
            #expect(columns.map(Set.init) == ["url", "maxClicks", "skipStore"], "\(answer)")
        }
    }
}
