import Foundation
import LinkKit
import Testing
import TestSupport

/// `linkd links build` through a running `linkd serve`'s API, with a key.
@Suite("linkd links build", .serialized)
struct LinksCommandTests {
    @Test func buildsThroughTheAPI() throws {
        let served = try ServedLinkd()
        defer { served.close() }
        let key = try LinkdProcess.run(["keys", "create", "--workspace", "acme", "--database-url", served.database.parameters.conninfo,
                                        "--migrations", LinkdServer.migrations]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        func call(_ method: String, _ path: String, _ json: String) throws -> JSONValue {
            let response = try HTTPTestClient.request(port: served.port, method: method, path: path,
                                                      headers: [("Authorization", "Bearer \(key)"), ("Content-Type", "application/json")],
                                                      body: Array(json.utf8))
            guard (200..<300).contains(response.status) else { throw TestFailure("\(method) \(path): \(response.status) \(response.text)") }
            return try JSONValue.parse(response.text)
        }
        _ = try call("POST", "/v1/teams", #"{"teamId":"ABCDE12345","name":"Acme"}"#)
        let app = try call("POST", "/v1/apps", #"{"platform":"ios","name":"W","teamId":"ABCDE12345","bundleId":"com.example.w","customScheme":"widgets"}"#)["id"]!.stringValue!
        _ = try call("POST", "/v1/apps/\(app)/destinations", #"{"name":"widgetDetail","params":{"id":{"type":"int","min":1}}}"#)
        _ = try call("PUT", "/v1/domains/\(ServedLinkd.host)/rules", #"{"rules":[{"apps":["\#(app)"],"path":"/widget/{id}","destination":{"type":"widgetDetail"}}]}"#)
        let server = "http://127.0.0.1:\(served.port)"
        var built = try LinkdProcess.run(["links", "build", "--server", server, "--key", key, "--app", app, "--type", "widgetDetail", "--params", #"{"id":42}"#])
        for _ in 0..<100 where built.status != 0 {   // the catalog installs the rules as the write answers; a moment at most
            usleep(50_000)
            built = try LinkdProcess.run(["links", "build", "--server", server, "--key", key, "--app", app, "--type", "widgetDetail", "--params", #"{"id":42}"#])
        }
        #expect(built.status == 0, "\(built.stderr)")
        let answer = try JSONValue.parse(built.stdout)
        #expect(answer["universal"] == .string("https://links.example.com/widget/42"))
        #expect(answer["scheme"] == .string("widgets://widget/42"))
        let batch = try LinkdProcess.run(["links", "build", "--server", server, "--key", key, "--batch", "-"], input: """
            [{"app":"\(app)","destination":{"type":"widgetDetail","params":{"id":1}}},{"app":"\(app)","destination":{"type":"widgetDetail","params":{"id":0}}}]
            """)
        #expect(batch.status == 0, "\(batch.stderr)")
        let results = try JSONValue.parse(batch.stdout)["results"]?.arrayValue ?? []
        #expect(results.count == 2 && results[0]["universal"] == .string("https://links.example.com/widget/1") && results[1]["error"] != nil)
        let refused = try LinkdProcess.run(["links", "build", "--server", server, "--key", key, "--app", app, "--type", "widgetDetail", "--params", #"{"id":0}"#])
        #expect(refused.status == 1 && refused.stderr.contains("/destination/params/id"), "\(refused.stderr)")
        let usage = try LinkdProcess.run(["links", "build", "--server", server, "--app", app])
        #expect(usage.status == 2)
    }
}
