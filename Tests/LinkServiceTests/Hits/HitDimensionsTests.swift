import Foundation
import GeoIP
@testable import LinkService
import Testing
import TestSupport

/// Issue 32's dimensions on real clicks: a MaxMind DB file written for the test (`write_country_db.pl`, with
/// Debian's libmaxmind-db-writer-perl) maps loopback addresses to countries; clicks come from those addresses
/// (the client socket bound to 127.0.0.x) with real browsers' and a crawler's `User-Agent`s; the `hits` rows carry
/// the country, OS, browser and device class.
@Suite("Hit dimensions: country, OS, browser, device")
struct HitDimensionsTests {
    static let iPhone = HitsEndToEndTests.iPhone
    static let pixel = HitsEndToEndTests.pixel
    static let windows = HitsEndToEndTests.desktop
    static let iPad =
        "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
    static let galaxyTab = "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
    static let googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

    /// A MaxMind DB file with `networks` (`"127.0.0.2/32=DE"`), written by the test's perl script.
    static func countryDatabase(_ networks: [String]) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("write_country_db.pl").path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-geoip-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("countries.mmdb").path
        let perl = try Subprocess("/usr/bin/perl", [script, file] + networks, mergeErrors: true)
        let status = try perl.wait()
        guard status == 0 else { throw TestFailure("write_country_db.pl: \(status): \(perl.standardOutput)") }
        return file
    }

    @Test func clicksRecordCountryOSBrowserAndDevice() throws {
        let database = try Self.countryDatabase(["127.0.0.2/32=DE", "127.0.0.3/32=US"])
        defer { try? FileManager.default.removeItem(atPath: (database as NSString).deletingLastPathComponent) }
        try TestService.with(configure: { $0.hits.geoIPDatabase = database }) { service throws in
            let fixture = try Fixture(service)
            let clicks: [(path: String, agent: String, from: String)] = [
                ("/widget/1", Self.iPhone, "127.0.0.2"),
                ("/widget/2", Self.pixel, "127.0.0.3"),
                ("/widget/3", Self.windows, "127.0.0.2"),
                ("/widget/4", Self.googlebot, "127.0.0.3"),
                ("/widget/5", Self.iPad, "127.0.0.1"), // in no network of the file: no country
                ("/widget/6", Self.galaxyTab, "127.0.0.3"),
            ]
            for click in clicks {
                let response = try HTTPTestClient.request(
                    port: service.port, path: click.path,
                    headers: [("Host", "links.example.com"), ("User-Agent", click.agent)], source: click.from)
                #expect(response.status < 500)
            }
            #expect(eventually { service.application.hits.counters.written == clicks.count })
            let rows = try service.application.pool.withConnection { connection in
                try connection.query("SELECT path, country, os, browser, device, is_bot FROM hits ORDER BY path")
                    .map { try $0.decode((String, String?, String?, String?, String?, Bool).self) }
            }
            #expect(rows.map(\.0) == clicks.map(\.path))
            #expect(rows.map(\.1) == ["DE", "US", "DE", "US", nil, "US"])
            #expect(rows.map(\.2) == ["iOS", "Android", "Windows", nil, "iOS", "Android"])
            #expect(rows.map(\.3) == ["Mobile Safari", "Chrome Mobile", "Chrome", "Googlebot", "Mobile Safari", "Chrome"])
            #expect(rows.map(\.4) == ["mobile", "mobile", "desktop", "bot", "tablet", "tablet"])
            #expect(rows.map(\.5) == [false, false, false, true, false, false])

            // What analytics answer of them: the taps by country, OS, browser and device, bots only when asked.
            func top(_ query: String) throws -> [String] {
                try Fixture.expect(200, service.request("GET", "/v1/analytics/top?\(query)", key: fixture.key)).json["items"]?.arrayValue?
                    .map {
                        guard case .object(let members) = $0, let first = members.first else { return "" }
                        return "\(first.value.stringValue ?? "") \($0["hits"]?.serialized ?? "")/\($0["visitors"]?.serialized ?? "")"
                    } ?? []
            }
            #expect(try top("dimension=country").sorted() == ["DE 2/2", "US 2/2"]) // the iPad's address is in no network
            #expect(try top("dimension=os").sorted() == ["Android 2/2", "Windows 1/1", "iOS 2/2"])
            #expect(try top("dimension=device").sorted() == ["desktop 1/1", "mobile 2/2", "tablet 2/2"])
            #expect(try top("dimension=device&includeBots=true").contains("bot 1/1"))
            #expect(try top("dimension=browser&country=DE").sorted() == ["Chrome 1/1", "Mobile Safari 1/1"])
            let german = try Fixture.expect(
                200, service.request("GET", "/v1/analytics/summary?country=DE&os=iOS&device=mobile", key: fixture.key)
            ).json
            #expect(german["hits"]?.serialized == "1" && german["uniqueVisitors"]?.serialized == "1")
        }
    }

    /// Without `--geoip-db` hits have no country, and still their OS, browser and device.
    @Test func withoutADatabaseHitsHaveNoCountry() throws {
        try TestService.with { service throws in
            _ = try Fixture(service)
            _ = try HTTPTestClient.request(
                port: service.port, path: "/widget/1", headers: [("Host", "links.example.com"), ("User-Agent", Self.pixel)],
                source: "127.0.0.2")
            // A HEAD is a bot whatever it claims to be: so is its device.
            _ = try HTTPTestClient.request(
                port: service.port, method: "HEAD", path: "/widget/2",
                headers: [("Host", "links.example.com"), ("User-Agent", Self.iPhone)])
            #expect(eventually { service.application.hits.counters.written == 2 })
            let rows = try service.application.pool.withConnection { connection in
                try connection.query("SELECT country, os, browser, device FROM hits ORDER BY path")
                    .map { try $0.decode((String?, String?, String?, String?).self) }
            }
            #expect(rows.map(\.0) == [nil, nil])
            #expect(rows.map(\.1) == ["Android", "iOS"])
            #expect(rows.map(\.2) == ["Chrome Mobile", "Mobile Safari"])
            #expect(rows.map(\.3) == ["mobile", "bot"])
        }
    }

    /// A file that is not there, or is not a MaxMind DB, stops the service from starting, saying which and why.
    @Test func anUnreadableOrInvalidDatabaseRefusesToStart() throws {
        #expect { try TestService(configure: { $0.hits.geoIPDatabase = "/nonexistent/countries.mmdb" }) } throws: { error in
            (error as? GeoIPError)?.code == .unreadable && "\(error)".contains("/nonexistent/countries.mmdb")
        }
        let bogus = try LinkdProcess.temporaryFile("not a database", name: "countries.mmdb")
        #expect { try TestService(configure: { $0.hits.geoIPDatabase = bogus }) } throws: { error in
            (error as? GeoIPError)?.code == .invalid && "\(error)".contains("not a MaxMind DB file")
        }
    }

    /// IPv6, IPv4-mapped IPv6 (a dual-stack socket's form of an IPv4 client) and addresses outside the file.
    @Test func addressesOfEveryForm() throws {
        let file = try Self.countryDatabase(["127.0.0.2/32=DE", "::1/128=FR", "2001:db8::/32=JP"])
        defer { try? FileManager.default.removeItem(atPath: (file as NSString).deletingLastPathComponent) }
        let countries = try CountryDatabase(path: file)
        #expect(countries.databaseType == "linkd-Test-Country")
        #expect(countries.country(of: "127.0.0.2") == "DE")
        #expect(countries.country(of: "::ffff:127.0.0.2") == "DE")
        #expect(countries.country(of: "::1") == "FR")
        #expect(countries.country(of: "2001:db8::42") == "JP")
        #expect(countries.country(of: "127.0.0.9") == nil)
        #expect(countries.country(of: "not an address") == nil)
        #expect(countries.country(of: "") == nil)
        // What a hit pays for its country (one lookup per hit, on the request thread), printed.
        let clock = ContinuousClock()
        var found = 0
        let elapsed = clock.measure {
            for index in 0..<100_000 where countries.country(of: index % 2 == 0 ? "127.0.0.2" : "::ffff:127.0.0.9") != nil { found += 1 }
        }
        #expect(found == 50_000)
        print(
            String(
                format: "GeoIP: %.2f µs per lookup",
                Double(elapsed.components.attoseconds) / 1e12 / 100_000
                    + Double(elapsed.components.seconds) * 1e6 / 100_000))
    }
}
