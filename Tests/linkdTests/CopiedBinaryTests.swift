import Foundation
import Testing
import TestSupport

/// Issue 46, item 7: the `linkd` binary alone, copied to a folder outside the checkout and run from there, as an
/// operator copies it to a server. It served `/console/` as a 404 with nothing in its log, and `linkd keys create`
/// needed `--migrations`; it now carries its console and its migrations, and `--console DIR` still overrides.
@Suite("A copied linkd binary", .serialized)
struct CopiedBinaryTests {
    /// The checkout's folders.
    static let checkout = URL(fileURLWithPath: LinkdServer.migrations).deletingLastPathComponent()

    /// A folder outside the checkout holding only a copy of the built `linkd`.
    static func copy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-copied-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: LinkdProcess.executable, to: folder.appendingPathComponent("linkd"))
        #expect(!folder.path.hasPrefix(checkout.path))
        return folder
    }

    /// `linkd arguments...` run from `folder` by its copy there.
    static func run(_ folder: URL, _ arguments: [String]) throws -> LinkdProcess.Result {
        try LinkdProcess.run(arguments, copy: folder.appendingPathComponent("linkd"), workingDirectory: folder.path)
    }

    @Test(.timeLimit(.minutes(3)))
    func keysCreateNeedsNoMigrationsFolderAndKeepsADatabaseMigratedFromTheFiles() throws {
        let folder = try Self.copy()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A fresh database: the copy applies the migrations it carries.
        let fresh = try TestDatabase.create()
        defer { try? fresh.drop() }
        let created = try Self.run(folder, ["keys", "create", "--workspace", "acme", "--database-url", fresh.parameters.conninfo])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.hasPrefix("lk_"))

        // A database migrated from the checkout's files: the built-in migrations have the same checksums, so the
        // copy finds it current rather than refusing it.
        let existing = try TestDatabase.create()
        defer { try? existing.drop() }
        let migrated = try LinkdProcess.run([
            "migrate", "--database-url", existing.parameters.conninfo, "--migrations", LinkdServer.migrations,
        ])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let status = try Self.run(folder, ["migrate", "--status", "--database-url", existing.parameters.conninfo])
        #expect(status.status == 0 && status.stdout.hasPrefix("migrations: current"), "\(status.stdout) \(status.stderr)")
        let again = try Self.run(folder, ["keys", "create", "--workspace", "acme", "--database-url", existing.parameters.conninfo])
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test(.timeLimit(.minutes(3)))
    func servesItsBuiltInConsoleAndSaysAMissingOne() throws {
        let folder = try Self.copy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try TestDatabase.create()
        defer { try? database.drop() }
        func serve(_ options: [String]) throws -> LinkdServer {
            try LinkdServer(
                [
                    "--database-url", database.parameters.conninfo, "--listen", "127.0.0.1:0",
                    "--spool-dir", folder.appendingPathComponent("spool-\(UUID())").path,
                ] + options,
                executable: folder.appendingPathComponent("linkd").path, workingDirectory: folder.path)
        }

        let server = try serve([])
        let port = try server.port()
        defer { _ = try? server.terminate() }
        for (path, file, type) in [
            ("/console/", "index.html", "text/html; charset=utf-8"),
            ("/console/views/links.js", "views/links.js", "text/javascript; charset=utf-8"),
            ("/console/console.css", "console.css", "text/css; charset=utf-8"),
            ("/console/icon.svg", "icon.svg", "image/svg+xml"),
        ] {
            let answer = try HTTPTestClient.request(port: port, path: path)
            #expect(answer.status == 200, "\(path): \(answer.status)")
            #expect(answer.headers["Content-Type"] == type, "\(path)")
            let bytes = [UInt8](try Data(contentsOf: Self.checkout.appendingPathComponent("console").appendingPathComponent(file)))
            #expect(answer.body == bytes, "\(path) is the checkout's \(file), byte for byte")
        }
        #expect(
            server.output.contains("console served at /console/") && server.output.contains(#""console.source":"built-in""#),
            "\(server.output.suffix(2000))")
        #expect(try server.terminate() == 0)

        // A folder given instead that holds no console: said at start, and the rest is served.
        let missing = folder.appendingPathComponent("no-console").path
        let overridden = try serve(["--console", missing])
        let overriddenPort = try overridden.port()
        defer { _ = try? overridden.terminate() }
        try overridden.waitUntilReady(port: overriddenPort)
        #expect(try HTTPTestClient.request(port: overriddenPort, path: "/console/").status == 404)
        let said = overridden.output.split(separator: "\n").first { $0.contains("console not served") }
        #expect(said?.contains(#""level":"error""#) == true && said?.contains(missing) == true, "\(overridden.output.suffix(2000))")
        #expect(try overridden.terminate() == 0)
    }
}
