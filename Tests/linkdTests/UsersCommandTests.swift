import Foundation
import Testing
import TestSupport

/// `linkd users create`: the first person of a fresh install gets a one-time link that sets their password, with
/// no mail server; with it they sign in to a running `linkd serve`.
@Suite(.serialized) struct UsersCommandTests {
    @Test func theFirstPersonSetsAPasswordWithThePrintedLinkAndSignsIn() throws {
        let served = try ServedLinkd()
        defer { served.close() }
        let database = ["--database-url", served.database.parameters.conninfo, "--migrations", LinkdServer.migrations]
        let created = try LinkdProcess.run(
            [
                "users", "create", "--workspace", "acme", "--email", "Ops@Example.com", "--role", "owner",
                "--name", "Ops", "--public-url", "https://links-admin.example.com/",
            ] + database)
        #expect(created.status == 0, "\(created.stderr)")
        let link = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let prefix = "https://links-admin.example.com/console/#/password?token="
        #expect(link.hasPrefix(prefix), "\(link)")
        let token = String(link.dropFirst(prefix.count))

        func post(_ path: String, _ json: String) throws -> TestResponse {
            try HTTPTestClient.request(
                port: served.port, method: "POST", path: path, headers: [("Content-Type", "application/json")],
                body: Array(json.utf8))
        }
        #expect(
            try post("/v1/sessions", #"{"email":"ops@example.com","password":"the first password"}"#).status == 401,
            "no password before the link is used")
        #expect(try post("/v1/password", #"{"token":"\#(token)","password":"the first password"}"#).status == 204)
        #expect(try post("/v1/password", #"{"token":"\#(token)","password":"the second password"}"#).status == 422, "used once")
        let signedIn = try post("/v1/sessions", #"{"email":"ops@example.com","password":"the first password"}"#)
        #expect(signedIn.status == 201, "\(signedIn.text)")
        #expect(signedIn.text.contains(#""role":"owner""#))

        // Without --public-url the link names the listen port's localhost; bad input is a usage error.
        let local = try LinkdProcess.run(
            [
                "users", "create", "--workspace", "acme", "--email", "dev@example.com", "--role", "editor",
                "--listen", "127.0.0.1:9123",
            ] + database)
        #expect(local.stdout.hasPrefix("http://localhost:9123/console/#/password?token="), "\(local.stdout) \(local.stderr)")
        #expect(
            try LinkdProcess.run(["users", "create", "--workspace", "acme", "--email", "dev@example.com", "--role", "root"] + database)
                .status == 2)
        #expect(try LinkdProcess.run(["users", "create", "--workspace", "acme", "--email", "not an email"] + database).status != 0)
        #expect(
            try LinkdProcess.run(["users", "create", "--workspace", "acme", "--email", "a@b.c", "--public-url", "ftp://x"] + database)
                .status == 2)
    }
}
