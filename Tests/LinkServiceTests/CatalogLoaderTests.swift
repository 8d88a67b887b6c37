import Foundation
@testable import LinkKit
@testable import LinkService
import Testing
import TestSupport

@Suite("Catalog loader")
struct CatalogLoaderTests {
    static let rules = """
        [{"apps":["$IOS","$ANDROID"],"path":"/private/*","exclude":true},
         {"apps":["$IOS","$ANDROID"],"path":"/widget/{id}","query":{"tab":"*"},"destination":{"type":"widgetDetail"}}]
        """

    /// The fixture's domain and a second one, `other.example.com`, whose rules are the fixture's (with `otherPaths`
    /// applied to their text).
    static func twoDomains(_ service: TestService, otherPaths: (String) -> String = { $0 }) throws -> (Fixture, String) {
        let fixture = try Fixture(service, rules: rules)
        let other = "other.example.com"
        try Fixture.expect(
            201,
            service.request(
                "POST", "/v1/domains", key: fixture.key,
                json: """
                    {"hostname":"\(other)","webFallbackUrl":"https://www.example.com","carryPathToFallback":true}
                    """))
        let list = otherPaths(
            rules.replacingOccurrences(of: "$IOS", with: fixture.iosApp).replacingOccurrences(of: "$ANDROID", with: fixture.androidApp))
        try Fixture.expect(200, service.request("PUT", "/v1/domains/\(other)/rules", key: fixture.key, json: #"{"rules":"# + list + "}"))
        return (fixture, other)
    }

    @Test func domainsWithTheSameRulesShareOneCompilationAndKeepTheirOwnRuleIDs() throws {
        try TestService.with { service in
            let (fixture, other) = try Self.twoDomains(service)

            let entries = try service.application.pool.withTransaction { try CatalogLoader.load(on: $0) }
            let first = try #require(entries.first { $0.hostname == fixture.host })
            let second = try #require(entries.first { $0.hostname == other })
            #expect(first.aasa.bytes == second.aasa.bytes && first.aasa.etag == second.aasa.etag)
            #expect(
                first.aasa.bytes.withUnsafeBufferPointer(\.baseAddress) == second.aasa.bytes.withUnsafeBufferPointer(\.baseAddress),
                "one compilation, held once")
            #expect(Set(first.ruleIDs).isDisjoint(with: second.ruleIDs))
            for (entry, host) in [(first, fixture.host), (second, other)] {
                let stored = try service.request("GET", "/v1/domains/\(host)/rules", key: fixture.key).json["items"]?.arrayValue
                let resolution = entry.resolve(try AASAURL("https://\(host)/widget/42"), platform: .android)
                #expect(resolution.rule?.id == stored?[1]["id"]?.stringValue)
                #expect(resolution.destination == .destination(type: "widgetDetail", params: [(name: "id", value: .int(42))]))
            }
        }
    }

    /// Domains with different rules for the same Android apps serve the same `assetlinks.json`: a load holds those
    /// bytes (and their ETag) once, while each domain keeps its own AASA file.
    @Test func domainsWithTheSameAssetLinksShareOneBody() throws {
        try TestService.with { service in
            let (fixture, other) = try Self.twoDomains(service, otherPaths: { $0.replacingOccurrences(of: "/widget/", with: "/gadget/") })

            let entries = try service.application.pool.withTransaction { try CatalogLoader.load(on: $0) }
            let first = try #require(entries.first { $0.hostname == fixture.host })
            let second = try #require(entries.first { $0.hostname == other })
            #expect(first.aasa.bytes != second.aasa.bytes)
            func address(_ bytes: [UInt8]) -> UnsafePointer<UInt8>? { bytes.withUnsafeBufferPointer(\.baseAddress) }
            #expect(first.assetLinks.bytes == second.assetLinks.bytes && first.assetLinks.etag == second.assetLinks.etag)
            #expect(address(first.assetLinks.bytes) == address(second.assetLinks.bytes), "held once")
            #expect(address(first.compiled.assetLinksBytes) == address(second.compiled.assetLinksBytes), "held once")
            #expect(first.assetLinks.lastModifiedHeader == first.aasa.lastModifiedHeader)
            #expect(
                try service.request("GET", "/.well-known/assetlinks.json", headers: [("Host", other)]).body
                    == first.assetLinks.bytes)
        }
    }

    /// The catalog holds a domain's iOS matcher only once a URL of it is resolved, and its Android tables (a
    /// translated pattern per rule) only once Android asks about it: loading, the association files and which
    /// domain decides for each app leave both unmade; an iOS resolve makes the matcher for its domain alone, an
    /// Android resolve the Android tables.
    @Test func androidTablesAreMadeOnlyForTheDomainsAndroidAsksAbout() throws {
        try TestService.with { service in
            let (fixture, other) = try Self.twoDomains(service, otherPaths: { $0.replacingOccurrences(of: "/widget/", with: "/gadget/") })
            let catalog = service.application.catalog
            // As a start loads it: a domain a rules PUT wrote is installed as its validation compiled it, and the
            // lint has asked that compilation's matcher.
            try CatalogReloader(catalog: catalog, pool: service.application.pool, logger: .quiet).reloadAll()
            func made(_ host: String) throws -> Bool { try #require(catalog.entry(exactly: host)).compiled.androidTablesMade }
            func matcher(_ host: String) throws -> Bool { try #require(catalog.entry(exactly: host)).compiled.iosMatcherMade }

            for host in [fixture.host, other] {
                for file in ["apple-app-site-association", "assetlinks.json"] {
                    #expect(try service.request("GET", "/.well-known/" + file, headers: [("Host", host)]).status == 200)
                }
            }
            #expect(catalog.owner(ofApp: try #require(UUID(uuidString: fixture.iosApp)))?.entry.hostname == fixture.host)
            #expect(try !matcher(fixture.host) && !matcher(other))
            let ios = try service.request("GET", "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2Fwidget%2F42", key: fixture.key)
            #expect(try ios.json["outcome"] == .string("open_app"))
            #expect(catalog.owner(ofApp: try #require(UUID(uuidString: fixture.androidApp)))?.entry.hostname == fixture.host)
            #expect(try matcher(fixture.host) && !matcher(other))
            #expect(try !made(fixture.host) && !made(other))

            let android = try service.request(
                "GET", "/v1/resolve?url=https%3A%2F%2Flinks.example.com%2Fwidget%2F42&platform=android", key: fixture.key)
            #expect(try android.json["outcome"] == .string("open_app"))
            #expect(try android.json["app"]?["id"] == .string(fixture.androidApp))
            #expect(try made(fixture.host) && !made(other))
        }
    }
}
