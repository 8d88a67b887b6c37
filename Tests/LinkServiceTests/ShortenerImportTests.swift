import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// `POST /v1/links/import?format=bitly|rebrandly|dub` (docs/LINKS-IMPORT.md, "Bitly, Rebrandly and Dub"): each
/// export's columns, the per-row report, and nothing written for a refused or skipped row.
@Suite("Links import: Bitly, Rebrandly and Dub exports")
struct ShortenerImportTests {
    private static func importFile(_ fixture: Fixture, _ query: String, _ file: String) throws -> JSONValue {
        try Fixture.expect(
            200,
            HTTPTestClient.request(
                port: fixture.service.port, method: "POST", path: "/v1/links/import?acknowledgeMoves=true&\(query)",
                headers: [("Authorization", "Bearer \(fixture.key)"), ("Content-Type", "text/csv")], body: Array(file.utf8), timeout: 60)
        ).json
    }

    private static func slugs(_ fixture: Fixture) throws -> [String] {
        let response = try Fixture.expect(200, fixture.service.request("GET", "/v1/links?limit=200", key: fixture.key))
        return try response.json["items"]?.arrayValue?.compactMap { $0["slug"]?.stringValue }.sorted() ?? []
    }

    private static func problemColumns(_ result: JSONValue?) -> [String] {
        result?["problems"]?.arrayValue?.compactMap { $0["column"]?.stringValue } ?? []
    }

    @Test func aBitlyExportImportsItsBackHalvesTitlesTagsAndArchivedLinks() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let file = """
                id,link,custom_bitlinks,long_url,title,archived,created_at,tags
                bit.ly/3xYz,https://bit.ly/3xYz,"[""https://links.example.com/spring""]",https://www.example.com/spring,Spring sale,false,2024-03-01T09:30:00+0000,"[""spring"",""mail""]"
                bit.ly/4abc,https://bit.ly/4abc,,https://www.example.com/x,Elsewhere,false,,
                links.example.com/old,https://links.example.com/old,,https://www.example.com/old,Old,true,2021-12-31T23:59:59+0100,
                links.example.com/plain,https://links.example.com/plain,,http://www.example.com/insecure,,false,,
                """
            let report = try Self.importFile(fixture, "format=bitly", file)
            #expect(
                report["created"] == .number("2") && report["refused"] == .number("2") && report["skipped"] == .number("0"), "\(report)")
            let results = try #require(report["results"]?.arrayValue)
            let spring = results[0]["link"]
            #expect(spring?["shortLink"] == .string("https://links.example.com/spring"))
            #expect(spring?["url"] == .string("https://www.example.com/spring") && spring?["name"] == .string("Spring sale"))
            #expect(spring?["tags"] == .array([.string("spring"), .string("mail")]))
            // A bit.ly link is on no domain of this workspace: refused at the column it comes from.
            #expect(results[1]["status"] == .string("refused") && Self.problemColumns(results[1]) == ["link"], "\(results[1])")
            #expect(results[2]["link"]?["expiresAt"] == .string("2021-12-31T22:59:59.000Z"), "\(results[2])")
            #expect(Self.problemColumns(results[3]) == ["long_url"], "\(results[3])")
            #expect(try Self.slugs(fixture) == ["old", "spring"])
        }
    }

    @Test func aRebrandlyExportMovesOntoTheDomainAsked() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let file = """
                Id,Title,Slashtag,Destination,ShortUrl,Domain,Tags,CreatedAt,Clicks
                a1,Burn,burn10M,https://www.example.com/burn,rebrand.ly/burn10M,rebrand.ly,"cars, summer",2016-07-13T10:54:12.000Z,42
                a2,,second,https://www.example.com/2,rebrand.ly/second,rebrand.ly,,,0
                """
            let dry = try Self.importFile(fixture, "format=rebrandly&dryRun=true&domain=links.example.com", file)
            #expect(
                dry["wouldCreate"] == .number("2")
                    && dry["ignoredColumns"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Id", "Clicks"], "\(dry)")
            #expect(try Self.slugs(fixture).isEmpty)
            let report = try Self.importFile(fixture, "format=rebrandly&domain=links.example.com", file)
            #expect(report["created"] == .number("2"), "\(report)")
            let burn = report["results"]?.arrayValue?.first?["link"]
            #expect(burn?["shortLink"] == .string("https://links.example.com/burn10M") && burn?["name"] == .string("Burn"))
            #expect(burn?["tags"] == .array([.string("cars"), .string("summer")]))
            // Without the domain, rebrand.ly is none of this workspace's: refused at its column, nothing written.
            let refused = try Self.importFile(fixture, "format=rebrandly", file.replacingOccurrences(of: "second", with: "third"))
            #expect(
                refused["refused"] == .number("2") && Self.problemColumns(refused["results"]?.arrayValue?.last) == ["Domain"], "\(refused)")
            #expect(try Self.slugs(fixture) == ["burn10M", "second"])
        }
    }

    @Test func aDubExportKeepsItsDeviceAndCountryTargeting() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let file = """
                link,url,key,domain,title,tags,createdAt,ios,android,geo
                https://links.example.com/app,https://www.example.com/app,app,links.example.com,Get the app,promo,2024-05-01T00:00:00.000Z,https://apps.apple.com/app/id1234567890,,"{""DE"":""https://www.example.de"",""AT"":""https://www.example.de"",""US"":""https://www.example.com/us""}"
                https://links.example.com,https://www.example.com,_root,links.example.com,,,,,,
                https://links.example.com/bad,https://www.example.com/bad,bad,links.example.com,,,,,https://play.example.com,"{""XX"":""https://www.example.com/xx""}"
                https://links.example.com/nogeo,https://www.example.com/n,nogeo,links.example.com,,,,,,not json
                """
            let report = try Self.importFile(fixture, "format=dub", file)
            #expect(
                report["created"] == .number("1") && report["skipped"] == .number("1") && report["refused"] == .number("2"), "\(report)")
            let results = try #require(report["results"]?.arrayValue)
            let link = results[0]["link"]
            #expect(link?["preview"]?["title"] == .string("Get the app") && link?["tags"] == .array([.string("promo")]))
            let targets = try #require(link?["targets"]?.arrayValue, "\(results[0])")
            #expect(targets.compactMap { $0["name"]?.stringValue } == ["ios", "geo DE AT", "geo US"])
            #expect(targets[0]["conditions"]?["platforms"]?.arrayValue?.first?["platform"] == .string("ios"))
            #expect(targets[0]["url"] == .string("https://apps.apple.com/app/id1234567890"))
            #expect(targets[1]["conditions"]?["countries"] == .array([.string("DE"), .string("AT")]))
            #expect(targets[2]["url"] == .string("https://www.example.com/us"))
            #expect(results[1]["status"] == .string("skipped") && results[1]["reason"]?.stringValue?.isEmpty == false)
            // An unknown country is refused at the geo column, the Android target beside it passing.
            #expect(Self.problemColumns(results[2]) == ["geo"], "\(results[2])")
            #expect(Self.problemColumns(results[3]) == ["geo"], "\(results[3])")
            #expect(try Self.slugs(fixture) == ["app"])
        }
    }

    /// Dub's A/B test (`testVariants`, URLs with percentages) becomes the link's own variants, weighing the
    /// percentages, after the device and country targets as Dub applies it; a completed test leaves no split, and what
    /// is no split is refused at the column.
    @Test func aDubExportKeepsItsABTest() throws {
        try TestService.with { service in
            let fixture = try Fixture(service)
            let file = """
                shortLink,url,testVariants,testStartedAt,testCompletedAt,ios
                https://links.example.com/ab,https://www.example.com/a,"[{""url"":""https://www.example.com/a"",""percentage"":70},{""url"":""https://www.example.com/b"",""percentage"":30}]",2024-05-01T00:00:00.000Z,2099-01-01T00:00:00.000Z,https://apps.apple.com/app/id1234567890
                https://links.example.com/done,https://www.example.com/b,"[{""url"":""https://www.example.com/a"",""percentage"":50},{""url"":""https://www.example.com/b"",""percentage"":50}]",2024-05-01T00:00:00.000Z,2024-06-01T00:00:00.000Z,
                https://links.example.com/one,https://www.example.com/a,"[{""url"":""https://www.example.com/a"",""percentage"":100}]",,,
                https://links.example.com/text,https://www.example.com/a,fifty-fifty,,,
                https://links.example.com/loop,https://www.example.com/a,"[{""url"":""https://www.example.com/a"",""percentage"":50},{""url"":""https://links.example.com/loop"",""percentage"":50}]",,,
                """
            let report = try Self.importFile(fixture, "format=dub", file)
            #expect(report["created"] == .number("2") && report["refused"] == .number("3"), "\(report)")
            let results = try #require(report["results"]?.arrayValue)
            let variants = try #require(results[0]["link"]?["variants"]?.arrayValue, "\(results[0])")
            #expect(variants.compactMap { $0["name"]?.stringValue } == ["A", "B"])
            #expect(variants.map { $0["weight"] } == [.number("70"), .number("30")])
            #expect(variants[1]["url"] == .string("https://www.example.com/b"))
            #expect(results[0]["link"]?["targets"]?.arrayValue?.first?["name"] == .string("ios"))
            // Completed: everyone goes to the link's URL.
            #expect(results[1]["status"] == .string("created") && results[1]["link"]?["variants"] == nil, "\(results[1])")
            for index in 2...4 { #expect(Self.problemColumns(results[index]) == ["testVariants"], "\(results[index])") }
            #expect(try Self.slugs(fixture) == ["ab", "done"])
            // The split serves: a visitor's cookie keeps one of the two URLs.
            let click = try service.request("GET", "/ab", headers: [("Host", fixture.host), ("User-Agent", ClickTests.pixel)])
            let location = click.headers["Location"] ?? ""
            #expect(["https://www.example.com/a", "https://www.example.com/b"].contains(location), "\(click.headers)")
        }
    }
}
