import ByteText
import Testing
@testable import LinkKit

/// The prefix index must never change a decision: indexed resolution equals the linear trace.
@Suite struct PrefixIndexTests {
    /// Random rules mixing literal prefixes, leading wildcards, variables, case-insensitive and decoded rules.
    static func randomFile(seed: UInt64, rules: Int) -> AASAFile {
        var random = SeededRandom(seed: seed)
        let paths = [
            "/a/*", "/a/b", "/a", "/ab*", "*", "/*/b", "/$(lang)/*", "/A/*", "/a b/*", "/a%20b/*", "/?/b", "", "/b/*/c", "/a/b/*", "b/*",
        ]
        var components: [AASAComponent] = []
        for _ in 0..<rules {
            components.append(
                AASAComponent(
                    path: random.pick(paths + [nil]),
                    query: random.pick([nil, .string("x=1"), .items([QueryItemPattern(name: "k", pattern: "?*")])]),
                    fragment: random.pick([nil, nil, "f"]),
                    exclude: random.pick([nil, true, false]),
                    caseSensitive: random.pick([nil, false]),
                    percentEncoded: random.pick([nil, false])
                ))
        }
        return AASAFile(
            applinks: AppLinks(details: [
                AppLinksDetail(appIDs: [appA], components: Array(components.prefix(rules / 2))),
                AppLinksDetail(appIDs: [appB, appA], components: Array(components.dropFirst(rules / 2))),
            ]))
    }

    static let urls = [
        "https://example.com/a/b", "https://example.com/A/B", "https://example.com/a", "https://example.com/",
        "https://example.com/ab/c?x=1", "https://example.com/a%20b/c#f", "https://example.com/en/x?k=v",
        "https://example.com/b/x/c", "https://example.com/abc", "https://example.com/z/b?k=",
    ]

    @Test(arguments: 0..<40)
    func indexedEqualsLinear(_ seed: Int) throws {
        let matcher = AASAMatcher(Self.randomFile(seed: UInt64(seed), rules: 24))
        for text in Self.urls {
            let url = try AASAURL(text)
            for app in [appA, appB] {
                let decision = matcher.decision(for: url, appID: app)
                let last = matcher.trace(for: url, appID: app).last
                let expected = last.flatMap { $0.matched ? $0.rule : nil }
                #expect(decision.rule == expected, "seed \(seed) \(text) \(app)")
            }
        }
    }

    @Test func tenThousandDistinctPrefixes() throws {
        var components = (0..<10_000).map { AASAComponent(path: "/section\($0)/*") }
        components.append(AASAComponent(path: "*", exclude: true))
        let matcher = AASAMatcher(AASAFile(applinks: AppLinks(details: [AppLinksDetail(appIDs: [appA], components: components)])))
        let hit = matcher.resolve(try AASAURL("https://example.com/section9876/x"))
        #expect(hit.appID == appA && hit.componentIndex == 9876)
        let parent = matcher.resolve(try AASAURL("https://example.com/section12"))
        #expect(parent.componentIndex == 12)
        let miss = matcher.resolve(try AASAURL("https://example.com/other"))
        #expect(miss.appID == nil && miss.componentIndex == 10_000)
        // Not linear in the rule count: only the rule with the URL's prefix and the catch-all are candidates.
        var subject = MatchSubject(try AASAURL("https://example.com/section9876/x"))
        #expect(matcher.groups[0].index.candidateNumbers(&subject) == [9876, 10_000])
        var parentSubject = MatchSubject(try AASAURL("https://example.com/section98/"))
        #expect(matcher.groups[0].index.candidateNumbers(&parentSubject) == [98, 10_000])
    }

    @Test func caseInsensitiveAndDecodedRulesAreIndexedInTheirForm() throws {
        let components = [
            AASAComponent(path: "/Shop/*", caseSensitive: false), AASAComponent(path: "/a b/*", percentEncoded: false),
            AASAComponent(path: "/other/*"), AASAComponent(path: "/$(lang)/*"),
        ]
        let matcher = AASAMatcher(AASAFile(applinks: AppLinks(details: [AppLinksDetail(appIDs: [appA], components: components)])))
        var shop = MatchSubject(try AASAURL("https://example.com/SHOP/1"))
        #expect(matcher.groups[0].index.candidateNumbers(&shop) == [0, 3])
        var space = MatchSubject(try AASAURL("https://example.com/a%20b/1"))
        #expect(matcher.groups[0].index.candidateNumbers(&space) == [1, 3])
        #expect(matcher.resolve(try AASAURL("https://example.com/a%20b/1")).componentIndex == 1)
    }
}

/// SplitMix64, so failures reproduce.
struct SeededRandom {
    var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed &+ 0x1234_5678) }
    mutating func next() -> UInt64 { generator.next() }
    mutating func pick<T>(_ options: [T]) -> T { options[Int(next() % UInt64(options.count))] }
}

/// The collapsed (radix) trie: prefixes that share long runs, end inside another's run, or end exactly where a
/// shorter one branches; indexed resolution must still equal the linear trace.
@Suite struct RadixPrefixIndexTests {
    static let segments = ["a", "ab", "abc", "b", "section", "section1", "section12", "x/y", "%20", "A"]

    static func randomFile(seed: UInt64, rules: Int) -> AASAFile {
        var random = SeededRandom(seed: seed)
        var components: [AASAComponent] = []
        for _ in 0..<rules {
            var path = ""
            for _ in 0..<random.pick([1, 2, 3]) { path += "/" + random.pick(segments) }
            path += random.pick(["", "/*", "*", "/?*", "/?"])
            components.append(AASAComponent(path: path, exclude: random.pick([nil, true]), caseSensitive: random.pick([nil, false])))
        }
        return AASAFile(
            applinks: AppLinks(details: [
                AppLinksDetail(appIDs: [appA], components: components),
                AppLinksDetail(appIDs: [appB], components: Array(components.reversed())),
            ]))
    }

    @Test(arguments: 0..<30)
    func indexedEqualsLinear(_ seed: Int) throws {
        let matcher = AASAMatcher(Self.randomFile(seed: UInt64(seed), rules: 40))
        var random = SeededRandom(seed: UInt64(seed) &+ 1_000)
        for _ in 0..<60 {
            var path = ""
            for _ in 0..<random.pick([0, 1, 2, 3, 4]) { path += "/" + random.pick(Self.segments + ["q", "section123"]) }
            let url = try AASAURL("https://example.com" + path + random.pick(["", "/"]))
            for app in [appA, appB] {
                let decision = matcher.decision(for: url, appID: app)
                let last = matcher.trace(for: url, appID: app).last
                #expect(decision.rule == last.flatMap { $0.matched ? $0.rule : nil }, "seed \(seed) \(path) \(app)")
            }
        }
    }
}
