import Foundation
import Postgres
import Testing
import TestSupport

/// `linkd workspaces` as an operator runs it, against a database of the test server.
@Suite("linkd workspaces")
struct WorkspacesCommandTests {
    @Test(.timeLimit(.minutes(2)))
    func allowListAndRemoveSuffixes() throws {
        let database = try TestDatabase.create()
        defer { try? database.drop() }
        let common = ["--database-url", database.parameters.conninfo, "--migrations", LinkdServer.migrations]
        func linkd(_ arguments: String...) throws -> LinkdProcess.Result { try LinkdProcess.run(arguments + common) }

        #expect(try linkd("keys", "create", "--workspace", "acme").status == 0)
        #expect(try linkd("keys", "create", "--workspace", "globex").status == 0)

        let allowed = try linkd("workspaces", "allow-suffix", "acme", "Example.COM")
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout == "acme: example.com\n")
        #expect(try linkd("workspaces", "allow-suffix", "acme", "links.example.org").stdout == "acme: example.com links.example.org\n")
        #expect(try linkd("workspaces", "allow-suffix", "acme", "example.com").status == 0, "idempotent")
        #expect(try linkd("workspaces", "list").stdout == "acme: example.com links.example.org\nglobex: any hostname\n")
        #expect(try linkd("workspaces", "list", "globex").stdout == "globex: any hostname\n")

        let stored = try Connection(database.parameters).query(
            """
            SELECT w.name, s.suffix FROM workspace_host_suffixes s JOIN workspaces w ON w.id = s.workspace_id ORDER BY 2
            """
        ).map { try $0.decode((String, String).self) }
        #expect(stored.map { "\($0.0) \($0.1)" } == ["acme example.com", "acme links.example.org"])

        let unknown = try linkd("workspaces", "allow-suffix", "nobody", "example.com")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("The workspace 'nobody' does not exist."), "\(unknown.stderr)")
        let wildcard = try linkd("workspaces", "allow-suffix", "acme", "*.example.com")
        #expect(wildcard.status == 1)
        #expect(wildcard.stderr.contains("without '*.'"), "\(wildcard.stderr)")
        #expect(try linkd("workspaces", "remove-suffix", "acme", "example.edu").status == 1)

        #expect(try linkd("workspaces", "remove-suffix", "acme", "example.com").stdout == "acme: links.example.org\n")
        #expect(try linkd("workspaces", "remove-suffix", "acme", "links.example.org").stdout == "acme: any hostname\n")

        #expect(try linkd("workspaces").status == 2)
        #expect(try linkd("workspaces", "allow-suffix", "acme").status == 2)
        let help = try LinkdProcess.run(["workspaces", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("allow-suffix NAME SUFFIX"))
    }
}
