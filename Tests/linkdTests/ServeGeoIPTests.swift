import Foundation
import Testing
import TestSupport

/// `linkd serve --geoip-db FILE` (docs/HITS.md, "Dimensions"): a file that cannot be read, or is not a MaxMind DB,
/// stops the server before it listens, with one line naming the file and the reason; a valid one serves.
@Suite("linkd serve --geoip-db")
struct ServeGeoIPTests {
    static func serve(_ database: TestDatabase, geoIP file: String) throws -> LinkdServer {
        let spool = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-geoip-spool-\(UUID().uuidString.prefix(8))")
        return try LinkdServer(database: database, port: LinkdServer.freePort(), spool: spool, options: ["--geoip-db", file])
    }

    @Test(.timeLimit(.minutes(2)))
    func aFileThatIsNoDatabaseOrIsMissingRefusesToStart() throws {
        let database = try TestDatabase.create()
        defer { try? database.drop() }
        let bogus = try LinkdProcess.temporaryFile("not a database", name: "countries.mmdb")
        for (file, reason) in [(bogus, "is not a MaxMind DB file"), ("/nonexistent/countries.mmdb", "cannot read the GeoIP database")] {
            let server = try Self.serve(database, geoIP: file)
            let status = try server.process.wait(timeout: 60)
            #expect(status == 1)
            let refusal = server.output.split(separator: "\n").filter { $0.hasPrefix("linkd serve:") }
            #expect(refusal.count == 1 && refusal.first?.contains(file) == true && refusal.first?.contains(reason) == true,
                    "\(server.output.suffix(1000))")
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func aValidFileServes() throws {
        let database = try TestDatabase.create()
        defer { try? database.drop() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("LinkServiceTests/Hits/write_country_db.pl").path
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-geoip-\(UUID().uuidString.prefix(8)).mmdb").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let perl = try Subprocess("/usr/bin/perl", [script, file, "127.0.0.2/32=DE"], mergeErrors: true)
        #expect(try perl.wait() == 0, "\(perl.standardOutput)")
        let server = try Self.serve(database, geoIP: file)
        let port = try server.port()
        try server.waitUntilReady(port: port)
        #expect(try server.terminate() == 0)
    }
}
