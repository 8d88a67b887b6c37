import Testing
@testable import LinkKit

/// §6: caseSensitive and percentEncoded, and how they cascade.
@Suite struct CaseAndEncodingTests {
    static let cases: [MatchCase] = [
        MatchCase("component caseSensitive false", single(#"[{"/":"/Abc","caseSensitive":false}]"#), "https://example.com/aBC", "A 0.0"),
        MatchCase(
            "domain default false", single(#"[{"/":"/Abc"}]"#, domainDefaults: #"{"caseSensitive":false}"#), "https://example.com/abc",
            "A 0.0"),
        MatchCase(
            "app default overrides domain",
            single(#"[{"/":"/Abc"}]"#, defaults: #"{"caseSensitive":true}"#, domainDefaults: #"{"caseSensitive":false}"#),
            "https://example.com/abc", "none"),
        MatchCase(
            "component overrides app", single(#"[{"/":"/Abc","caseSensitive":false}]"#, defaults: #"{"caseSensitive":true}"#),
            "https://example.com/abc", "A 0.0"),
        MatchCase(
            "case folding reaches the fragment", single(##"[{"#":"Top"}]"##, defaults: #"{"caseSensitive":false}"#),
            "https://example.com/x#tOP", "A 0.0"),
        MatchCase("misspelt casesensitive is ignored", single(#"[{"/":"/Abc","casesensitive":false}]"#), "https://example.com/abc", "none"),
        MatchCase(
            "non-ASCII folding when decoded", single(#"[{"/":"/CAFÉ","caseSensitive":false,"percentEncoded":false}]"#),
            "https://example.com/caf%C3%A9", "A 0.0"),
        MatchCase("encoded pattern matches encoded URL", single(#"[{"/":"/a%20b"}]"#), "https://example.com/a%20b", "A 0.0"),
        MatchCase("decoded pattern does not match encoded URL", single(#"[{"/":"/a b"}]"#), "https://example.com/a%20b", "none"),
        MatchCase(
            "percentEncoded false decodes the URL", single(#"[{"/":"/a b","percentEncoded":false}]"#), "https://example.com/a%20b", "A 0.0"),
        MatchCase(
            "percentEncoded false: encoded pattern stops matching", single(#"[{"/":"/a%20b","percentEncoded":false}]"#),
            "https://example.com/a%20b", "none"),
        MatchCase("hex case is significant", single(#"[{"/":"/caf%C3%A9"}]"#), "https://example.com/caf%c3%a9", "none"),
        MatchCase(
            "hex case ignored when case-insensitive", single(#"[{"/":"/caf%C3%A9","caseSensitive":false}]"#),
            "https://example.com/caf%c3%a9", "A 0.0"),
        MatchCase("raw non-ASCII URL is encoded first", single(#"[{"/":"/caf%C3%A9"}]"#), "https://example.com/café", "A 0.0"),
        MatchCase("Unicode pattern, encoded compare", single(#"[{"/":"/café/*"}]"#), "https://example.com/caf%C3%A9/menu", "none"),
        MatchCase(
            "Unicode pattern, decoded compare", single(#"[{"/":"/café/*","percentEncoded":false}]"#), "https://example.com/caf%C3%A9/menu",
            "A 0.0"),
        MatchCase(
            "CJK pattern ?*", single(#"[{"/":"/哈哈/?*","percentEncoded":false}]"#), "https://example.com/%E5%93%88%E5%93%88/x", "A 0.0"),
        MatchCase(
            "%2F becomes a real slash when decoded", single(#"[{"/":"/a/b","percentEncoded":false}]"#), "https://example.com/a%2Fb", "A 0.0"
        ),
        MatchCase("%2F stays encoded by default", single(#"[{"/":"/a/b"}]"#), "https://example.com/a%2Fb", "none"),
        MatchCase(
            "? is one character when decoded", single(#"[{"/":"/?","percentEncoded":false}]"#), "https://example.com/%C3%A9", "A 0.0"),
        MatchCase("? is one byte-character when encoded", single(#"[{"/":"/?"}]"#), "https://example.com/%C3%A9", "none"),
        MatchCase(
            "percentEncoded cascades from the domain", single(#"[{"/":"/a b"}]"#, domainDefaults: #"{"percentEncoded":false}"#),
            "https://example.com/a%20b", "A 0.0"),
        MatchCase("invalid escapes stay literal", single(#"[{"/":"/a%zz","percentEncoded":false}]"#), "https://example.com/a%zz", "A 0.0"),
    ]

    @Test(arguments: cases)
    func matches(_ row: MatchCase) throws {
        #expect(try outcome(row.aasa, row.url) == row.expected)
    }
}
