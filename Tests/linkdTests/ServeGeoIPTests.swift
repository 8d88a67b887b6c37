import Foundation
import Postgres
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
            #expect(
                refusal.count == 1 && refusal.first?.contains(file) == true && refusal.first?.contains(reason) == true,
                "\(server.output.suffix(1000))")
        }
    }

    /// A valid file: clicks from 127.0.0.2 and 127.0.0.3 (the client socket bound there) are stored with the
    /// countries the file gives them, and every click with its OS, browser and device class.
    @Test(.timeLimit(.minutes(3)))
    func clicksCarryTheirCountriesOSBrowsersAndDevices() throws {
        let database = try TestDatabase.create()
        defer { try? database.drop() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("LinkServiceTests/Hits/write_country_db.pl").path
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-geoip-\(UUID().uuidString.prefix(8)).mmdb").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let perl = try Subprocess("/usr/bin/perl", [script, file, "127.0.0.2/32=DE", "127.0.0.3/32=US"], mergeErrors: true)
        #expect(try perl.wait() == 0, "\(perl.standardOutput)")
        let server = try Self.serve(database, geoIP: file)
        let port = try server.port()
        try server.waitUntilReady(port: port)
        let key = try LinkdProcess.run([
            "keys", "create", "--workspace", "acme", "--database-url", database.parameters.conninfo,
            "--migrations", LinkdServer.migrations,
        ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let created = try HTTPTestClient.request(
            port: port, method: "POST", path: "/v1/domains",
            headers: [("Authorization", "Bearer \(key)"), ("Content-Type", "application/json")],
            body: Array(#"{"hostname":"links.example.com","webFallbackUrl":"https://www.example.com"}"#.utf8))
        #expect(created.status == 201, "\(created.text)")
        let clicks = [
            (
                "/a",
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
                "127.0.0.2"
            ),
            (
                "/b",
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
                "127.0.0.3"
            ),
            (
                "/c",
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
                "127.0.0.4"
            ),
            ("/d", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "127.0.0.2"),
        ]
        for (path, agent, source) in clicks {
            let response = try HTTPTestClient.request(
                port: port, path: path, headers: [("Host", "links.example.com"), ("User-Agent", agent)], source: source)
            #expect(response.status == 302)
        }
        #expect(try server.terminate() == 0) // writes every accepted hit out
        let rows = try Connection(database.parameters)
            .query("SELECT path, country, os, browser, device FROM hits WHERE hostname = 'links.example.com' ORDER BY path")
            .map { try $0.decode((String, String?, String?, String?, String?).self) }
        #expect(rows.map(\.0) == ["/a", "/b", "/c", "/d"])
        #expect(rows.map(\.1) == ["DE", "US", nil, "DE"])
        #expect(rows.map(\.2) == ["iOS", "Android", "Mac OS X", nil])
        #expect(rows.map(\.3) == ["Mobile Safari", "Chrome Mobile", "Safari", "bingbot"])
        #expect(rows.map(\.4) == ["mobile", "mobile", "desktop", "bot"])
    }
}
