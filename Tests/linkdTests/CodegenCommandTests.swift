import Foundation
import Testing
import TestSupport

/// `linkd codegen` fetches the generated file through the API of a running `linkd serve`, with a read key.
@Suite(.serialized) struct CodegenCommandTests {
    @Test func writesTheFileTheAPIServes() throws {
        let served = try ServedLinkd()
        defer { served.close() }
        let key = try served.createKey(["--scope", "read"])
        let admin = served.key
        func call(_ method: String, _ path: String, _ json: String? = nil, key: String) throws -> TestResponse {
            var headers = [("Authorization", "Bearer \(key)")]
            if json != nil { headers.append(("Content-Type", "application/json")) }
            return try HTTPTestClient.request(
                port: served.port, method: method, path: path, headers: headers, body: json.map { Array($0.utf8) })
        }
        _ = try call("POST", "/v1/teams", #"{"teamId":"ABCDE12345","name":"Acme"}"#, key: admin)
        let created = try call(
            "POST", "/v1/apps", #"{"platform":"ios","name":"W","teamId":"ABCDE12345","bundleId":"com.example.w","customScheme":"widgets"}"#,
            key: admin)
        let app = try #require(created.text.split(separator: "\"").dropFirst().first { UUID(uuidString: String($0)) != nil }).lowercased()
        _ = try call("POST", "/v1/apps/\(app)/destinations", #"{"name":"widgetDetail","params":{"id":{"type":"int"}}}"#, key: admin)
        let rules = try call(
            "PUT", "/v1/domains/\(ServedLinkd.host)/rules",
            #"{"rules":[{"apps":["\#(app)"],"path":"/widget/{id}","destination":{"type":"widgetDetail"}}]}"#, key: admin)
        #expect(rules.status == 200, "\(rules.text)")

        let server = "http://127.0.0.1:\(served.port)"
        let printed = try LinkdProcess.run(["codegen", "--app", app, "--language", "swift", "--server", server, "--key", key])
        #expect(printed.status == 0, "\(printed.stderr)")
        let api = try call("GET", "/v1/apps/\(app)/codegen/swift", key: key)
        #expect(api.status == 200)
        #expect(printed.stdout == api.text)
        #expect(printed.stdout.contains("case widgetDetail(id: Int)"))
        #expect(printed.stdout.contains("// Rules ETag: \""))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(getpid()).ts").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let written = try LinkdProcess.run([
            "codegen", "--app", app, "--language", "typescript", "--out", file, "--server", server, "--key", key,
        ])
        #expect(written.status == 0, "\(written.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == (try call("GET", "/v1/apps/\(app)/codegen/typescript", key: key)).text)

        // `--package`: the Kotlin files' package, checked before anything is asked.
        let packaged = try LinkdProcess.run([
            "codegen", "--app", app, "--language", "kotlin", "--package", "com.example.w", "--server", server, "--key", key,
        ])
        #expect(packaged.status == 0, "\(packaged.stderr)")
        #expect(packaged.stdout == (try call("GET", "/v1/apps/\(app)/codegen/kotlin?package=com.example.w", key: key)).text)
        #expect(packaged.stdout.contains("\npackage com.example.w\n"))
        let badPackage = try LinkdProcess.run([
            "codegen", "--app", app, "--language", "kotlin", "--package", "w", "--server", server, "--key", key,
        ])
        #expect(badPackage.status == 2 && badPackage.stderr.contains("--package: package name 'w' needs at least two parts"))

        let unknown = try LinkdProcess.run(["codegen", "--app", UUID().uuidString, "--language", "swift", "--server", server, "--key", key])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("404"))
        #expect(try LinkdProcess.run(["codegen", "--language", "swift", "--key", key]).status == 2)
        #expect(try LinkdProcess.run(["codegen", "--app", app, "--language", "cobol", "--key", key]).status == 2)
    }
}
