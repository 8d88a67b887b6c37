import Foundation
import LinkKit
import Testing
import TestSupport

/// `linkd links` through a running `linkd serve`'s API, with a key.
@Suite("linkd links", .serialized)
struct LinksCommandTests {
    @Test func buildsThroughTheAPI() throws {
        let served = try ServedLinkd()
        defer { served.close() }
        let key = served.key
        func call(_ method: String, _ path: String, _ json: String) throws -> JSONValue {
            let response = try HTTPTestClient.request(
                port: served.port, method: method, path: path,
                headers: [("Authorization", "Bearer \(key)"), ("Content-Type", "application/json")],
                body: Array(json.utf8))
            guard (200..<300).contains(response.status) else { throw TestFailure("\(method) \(path): \(response.status) \(response.text)") }
            return try JSONValue.parse(response.text)
        }
        _ = try call("POST", "/v1/teams", #"{"teamId":"ABCDE12345","name":"Acme"}"#)
        let app = try call(
            "POST", "/v1/apps", #"{"platform":"ios","name":"W","teamId":"ABCDE12345","bundleId":"com.example.w","customScheme":"widgets"}"#)[
                "id"]!.stringValue!
        _ = try call("POST", "/v1/apps/\(app)/destinations", #"{"name":"widgetDetail","params":{"id":{"type":"int","min":1}}}"#)
        _ = try call(
            "PUT", "/v1/domains/\(ServedLinkd.host)/rules",
            #"{"rules":[{"apps":["\#(app)"],"path":"/widget/{id}","destination":{"type":"widgetDetail"}}]}"#)
        let server = "http://127.0.0.1:\(served.port)"
        var built: LinkdProcess.Result?
        #expect(
            try eventually { // the catalog installs the rules as the write answers; a moment at most
                built = try LinkdProcess.run([
                    "links", "build", "--server", server, "--key", key, "--app", app, "--type", "widgetDetail", "--params", #"{"id":42}"#,
                ])
                return built?.status == 0
            }, "\(built?.stderr ?? "")")
        let answer = try JSONValue.parse(try #require(built).stdout)
        #expect(answer["universal"] == .string("https://links.example.com/widget/42"))
        #expect(answer["scheme"] == .string("widgets://widget/42"))
        let batch = try LinkdProcess.run(
            ["links", "build", "--server", server, "--key", key, "--batch", "-"],
            input: """
                [{"app":"\(app)","destination":{"type":"widgetDetail","params":{"id":1}}},{"app":"\(app)","destination":{"type":"widgetDetail","params":{"id":0}}}]
                """)
        #expect(batch.status == 0, "\(batch.stderr)")
        let results = try JSONValue.parse(batch.stdout)["results"]?.arrayValue ?? []
        #expect(
            results.count == 2 && results[0]["universal"] == .string("https://links.example.com/widget/1") && results[1]["error"] != nil)
        let refused = try LinkdProcess.run([
            "links", "build", "--server", server, "--key", key, "--app", app, "--type", "widgetDetail", "--params", #"{"id":0}"#,
        ])
        #expect(refused.status == 1 && refused.stderr.contains("/destination/params/id"), "\(refused.stderr)")
        let usage = try LinkdProcess.run(["links", "build", "--server", server, "--app", app])
        #expect(usage.status == 2)
    }

    /// `linkd links create`, `import` and `export` through the API: one link, a bulk file, a Takeout file (dry run
    /// first), and an export that imports back.
    @Test func createsImportsAndExportsThroughTheAPI() throws {
        let served = try ServedLinkd()
        defer { served.close() }
        let key = served.key
        let api = ["--server", "http://127.0.0.1:\(served.port)", "--key", key]
        let host = ServedLinkd.host

        let one = try LinkdProcess.run(
            [
                "links", "create", "--domain", host, "--url", "https://www.example.com/one", "--slug", "one",
                "--tags", "a,b", "--max-clicks", "3",
            ] + api)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(try JSONValue.parse(one.stdout)["shortLink"] == .string("https://\(host)/one"))
        let taken = try LinkdProcess.run(
            ["links", "create", "--domain", host, "--url", "https://www.example.com/one", "--slug", "one"] + api)
        #expect(taken.status == 1 && taken.stderr.contains("409"), "\(taken.stderr)")

        let bulk = try LinkdProcess.run(
            ["links", "create", "--file", "-"] + api,
            input: """
                {"domain":"\(host)","slug":"two","url":"https://www.example.com/two"}
                {"domain":"\(host)","slug":"one","url":"https://www.example.com/again"}
                """)
        #expect(bulk.status == 1 && bulk.stderr.contains("1 created, 1 refused"), "\(bulk.stderr)")
        #expect(try JSONValue.parse(bulk.stdout)["created"] == .number("1"))

        let takeout = FileManager.default.temporaryDirectory.appendingPathComponent("takeout-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: takeout) }
        try Data("Short link,Deep link (link),Link name (x)\nhttps://\(host)/fdl,https://www.example.com/fdl,\n".utf8).write(to: takeout)
        let dry = try LinkdProcess.run(["links", "import", takeout.path, "--format", "firebase", "--dry-run"] + api)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try JSONValue.parse(dry.stdout)["wouldCreate"] == .number("1"))
        let imported = try LinkdProcess.run(["links", "import", takeout.path, "--format", "firebase"] + api)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try JSONValue.parse(imported.stdout)["created"] == .number("1"))

        let exported = try LinkdProcess.run(["links", "export"] + api)
        #expect(exported.status == 0, "\(exported.stderr)")
        let rows = exported.stdout.split(separator: "\r\n")
        #expect(rows.count == 4 && rows[0].hasPrefix("domain,slug,url,"), "\(exported.stdout)")
        #expect(rows.dropFirst().map { $0.split(separator: ",")[1] } == ["one", "two", "fdl"])
        let filtered = try LinkdProcess.run(["links", "export", "--search", "fd"] + api)
        #expect(filtered.stdout.split(separator: "\r\n").count == 2)
        let sorted = try LinkdProcess.run(["links", "export", "--sort", "-slug"] + api)
        #expect(
            sorted.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",")[1] } == ["two", "one", "fdl"],
            "\(sorted.stderr)")
        // The export imports back: every slug is taken now, each row refused by its slug.
        let back = try LinkdProcess.run(["links", "import", "-", "--format", "csv"] + api, input: exported.stdout)
        #expect(back.status == 1 && back.stderr.contains("0 created, 3 refused"), "\(back.stderr)")

        // Another shortener's export, then the links as JSON, one a line.
        let dub = try LinkdProcess.run(
            ["links", "import", "-", "--format", "dub"] + api,
            input: """
                link,url,key,domain,geo
                https://\(host)/dub,https://www.example.com/dub,dub,\(host),"{""DE"":""https://www.example.de""}"
                """)
        #expect(dub.status == 0 && (try? JSONValue.parse(dub.stdout)["created"]) == .number("1"), "\(dub.stdout) \(dub.stderr)")
        let ndjson = try LinkdProcess.run(["links", "export", "--format", "ndjson"] + api)
        let lines = try ndjson.stdout.split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(lines.map { $0["slug"]?.stringValue } == ["one", "two", "fdl", "dub"], "\(ndjson.stderr)")
        #expect(lines.last?["targets"]?.arrayValue?.first?["conditions"]?["countries"] == .array([.string("DE")]))
        #expect(try LinkdProcess.run(["links", "export", "--format", "xml"] + api).status == 2)

        #expect(try LinkdProcess.run(["links", "import", takeout.path] + api).status == 2)
        #expect(try LinkdProcess.run(["links", "create", "--domain", host] + api).status == 2)
        #expect(try LinkdProcess.run(["links", "export", "--output"] + api).status == 2)
    }
}
