import Testing
@testable import LinkKit

/// §4: the pattern language on paths.
@Suite struct PathPatternTests {
    static let cases: [MatchCase] = [
        // `*` is zero or more characters, including `/`; whole-component match.
        MatchCase("star", single(#"[{"/":"/a/*"}]"#), "https://example.com/a/b", "A 0.0"),
        MatchCase("star crosses slashes", single(#"[{"/":"/a/*"}]"#), "https://example.com/a/b/c", "A 0.0"),
        MatchCase("/x/* matches /x (TN3155)", single(#"[{"/":"/a/*"}]"#), "https://example.com/a", "A 0.0"),
        MatchCase("/x/* matches /x/", single(#"[{"/":"/a/*"}]"#), "https://example.com/a/", "A 0.0"),
        MatchCase("/x/* is not a prefix of /xy", single(#"[{"/":"/a/*"}]"#), "https://example.com/ab", "none"),
        MatchCase("whole path, not a prefix", single(#"[{"/":"abc"}]"#), "https://example.com/abcd", "none"),
        MatchCase("leading slash optional", single(#"[{"/":"abc"}]"#), "https://example.com/abc", "A 0.0"),
        MatchCase("leading slashes collapse", single(#"[{"/":"//abc"}]"#), "https://example.com/abc", "A 0.0"),
        MatchCase("trailing slash dropped from the path", single(#"[{"/":"/buy"}]"#), "https://example.com/buy/", "A 0.0"),
        MatchCase("trailing slash dropped from the pattern", single(#"[{"/":"/buy/"}]"#), "https://example.com/buy", "A 0.0"),
        MatchCase("trailing slash runs dropped", single(#"[{"/":"/buy//"}]"#), "https://example.com/buy///", "A 0.0"),
        MatchCase("root pattern, root path", single(#"[{"/":"/"}]"#), "https://example.com/", "A 0.0"),
        MatchCase("root pattern, empty path", single(#"[{"/":"/"}]"#), "https://example.com", "A 0.0"),
        MatchCase("root pattern, other path", single(#"[{"/":"/"}]"#), "https://example.com/x", "none"),
        MatchCase("lone star matches the root", single(#"[{"/":"*"}]"#), "https://example.com", "A 0.0"),
        MatchCase("absent / is *", single(##"[{"#":"*"}]"##), "https://example.com/deep/path", "A 0.0"),
        MatchCase("? is one character", single(#"[{"/":"/a/?"}]"#), "https://example.com/a/b", "A 0.0"),
        MatchCase("? is not two", single(#"[{"/":"/a/?"}]"#), "https://example.com/a/bc", "none"),
        MatchCase("? is not zero", single(#"[{"/":"/a/?"}]"#), "https://example.com/a", "none"),
        MatchCase("?* is one or more", single(#"[{"/":"/a/?*"}]"#), "https://example.com/a/bc", "A 0.0"),
        MatchCase("?* is not zero", single(#"[{"/":"/a/?*"}]"#), "https://example.com/a/", "none"),
        MatchCase("/id/???? is not 'append a slash'", single(#"[{"/":"/id/????"}]"#), "https://example.com/id/481", "none"),
        MatchCase("/id/???? four", single(#"[{"/":"/id/????"}]"#), "https://example.com/id/4815", "A 0.0"),
        MatchCase("/id/???? not five", single(#"[{"/":"/id/????"}]"#), "https://example.com/id/48151", "none"),
        MatchCase("mid star needs both slashes", single(#"[{"/":"/a/*/c"}]"#), "https://example.com/a/c", "none"),
        MatchCase("mid star", single(#"[{"/":"/a/*/c"}]"#), "https://example.com/a/b/d/c", "A 0.0"),
        MatchCase("suffix", single(#"[{"/":"/docs/*.pdf"}]"#), "https://example.com/docs/a/b.pdf", "A 0.0"),
        MatchCase("suffix is whole", single(#"[{"/":"/docs/*.pdf"}]"#), "https://example.com/docs/b.pdfx", "none"),
        MatchCase("? in a path pattern is a wildcard", single(#"[{"/":"/p?x"}]"#), "https://example.com/pax", "A 0.0"),
        MatchCase("? in a path pattern is not the query", single(#"[{"/":"/p?x"}]"#), "https://example.com/p?x", "none"),
        MatchCase("no escape syntax: backslash is literal", single(#"[{"/":"/a\\*"}]"#), "https://example.com/a\\zz", "A 0.0"),
        MatchCase("no escape syntax: \\* is still a star", single(#"[{"/":"/a\\*"}]"#), "https://example.com/a*", "none"),
        MatchCase("# in a path pattern never matches", single(#"[{"/":"/#/x/*"}]"#), "https://example.com/#/x/1", "none"),
        MatchCase("/* on the root", single(#"[{"/":"/*"}]"#), "https://example.com/", "A 0.0"),
        MatchCase(
            "legacy /201?/*", #"{"applinks":{"apps":[],"details":[{"appID":"\#(appA)","paths":["/videos/wwdc/201?/*"]}]}}"#,
            "https://example.com/videos/wwdc/2015/x", "A 0.0"),
        MatchCase(
            "literal $( in the URL is not a variable", single(#"[{"/":"/$(food)"}]"#, variables: #"{"food":["pizza"]}"#),
            "https://example.com/$(food)", "none"),
        MatchCase("star then literal backtracks", single(#"[{"/":"*/x/*/y"}]"#), "https://example.com/a/x/x/b/y", "A 0.0"),
        MatchCase("case-sensitive by default", single(#"[{"/":"/Abc"}]"#), "https://example.com/abc", "none"),
    ]

    @Test(arguments: cases)
    func matches(_ row: MatchCase) throws {
        #expect(try outcome(row.aasa, row.url) == row.expected)
    }

    @Test func manyStarsStayPolynomial() throws {
        let pattern = Pattern("/" + String(repeating: "*a", count: 20) + "*b", caseSensitive: true, variables: [:])
        let input = Array(("/" + String(repeating: "a", count: 2_000)).utf8)
        let clock = ContinuousClock()
        let elapsed = clock.measure { #expect(!pattern.matches(input)) }
        #expect(elapsed < .seconds(2))
    }

    @Test(
        arguments: [
            ("buy/*", "/buy/*", "/buy"), ("//x//", "/x", nil), ("/", "", nil), ("*", "/*", ""), ("", "", nil), ("/a//*", "/a//*", "/a"),
            ("/s2/d1/*", "/s2/d1/*", "/s2/d1"), ("/x?", "/x?", nil), ("/é//", "/é", nil), ("é/*", "/é/*", "/é"),
        ] as [(String, String, String?)])
    func normalisesPathPatterns(_ text: String, _ pattern: String, _ parent: String?) {
        let normalised = CompiledRule.normalizedPath(text)
        #expect(normalised.pattern == pattern)
        #expect(normalised.parent == parent)
    }
}
