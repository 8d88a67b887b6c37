import Foundation
import TestSupport
import Testing

/// A SIGTERM sent while `linkd serve` starts is not lost: the start finishes, then the server shuts down as it does
/// after any SIGTERM and exits 0 (before, it was either fatal there or, in a narrow window, ignored for good).
struct ServeSignalTests {
    @Test(.timeLimit(.minutes(2)))
    func aSIGTERMDuringTheStartShutsDownOnceStarted() throws {
        let database = try TestDatabase.create()
        defer { try? database.drop() }
        let spool = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-signal-\(UUID())")
        defer { try? FileManager.default.removeItem(at: spool) }
        let server = try LinkdServer(database: database, port: LinkdServer.freePort(), spool: spool, options: ["--log-level", "info"])
        // A fresh database: the start is applying its migrations.
        try waitUntil("linkd serve to apply migrations: \(server.output)") { server.output.contains("applying migration") }
        #expect(try server.terminate(timeout: 60) == 0, "\(server.output.suffix(2000))")
        #expect(server.output.contains("\"shutting down\""), "\(server.output.suffix(2000))")
    }
}
