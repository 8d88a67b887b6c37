import Foundation
import Testing
import TestSupport

/// `linkd keys create --role`: the bootstrap key may act as any role, an owner's included (docs/PEOPLE.md, "Roles").
@Suite(.serialized) struct KeysCommandTests {
    @Test func aKeyIsCreatedWithTheRoleNamed() throws {
        let served = try ServedLinkd()
        defer { served.close() }
        func create(_ extra: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            let run = try LinkdProcess.run(
                ["keys", "create", "--workspace", "acme"] + extra
                    + ["--database-url", served.database.parameters.conninfo, "--migrations", LinkdServer.migrations])
            return (run.status, run.stdout.trimmingCharacters(in: .whitespacesAndNewlines), run.stderr)
        }
        func role(_ key: String) throws -> String? {
            let answer = try HTTPTestClient.request(
                port: served.port, method: "GET", path: "/v1/whoami",
                headers: [("Authorization", "Bearer \(key)")], body: nil)
            return (try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?["role"] as? String
        }
        let owner = try create(["--role", "owner"])
        #expect(owner.status == 0, "\(owner.stderr)")
        #expect(try role(owner.stdout) == "owner")
        #expect(try role(try create(["--scope", "read"]).stdout) == "viewer")
        #expect(try role(try create([]).stdout) == "admin")
        let wrong = try create(["--role", "boss"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--role must be viewer, editor, admin or owner"))
    }
}
