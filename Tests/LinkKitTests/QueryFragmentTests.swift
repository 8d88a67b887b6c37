import Testing
@testable import LinkKit

/// §5: query as a string or a dictionary, and fragments.
@Suite struct QueryFragmentTests {
    static let cases: [MatchCase] = [
        MatchCase("string: whole query", single(#"[{"/":"/x","?":"a=1"}]"#), "https://example.com/x?a=1", "A 0.0"),
        MatchCase("string: not a prefix", single(#"[{"/":"/x","?":"a=1"}]"#), "https://example.com/x?a=1&b=2", "none"),
        MatchCase("string: absent query is empty", single(#"[{"/":"/x","?":"a=1"}]"#), "https://example.com/x", "none"),
        MatchCase("string: empty pattern, no query", single(#"[{"/":"/x","?":""}]"#), "https://example.com/x", "A 0.0"),
        MatchCase("string: empty pattern, empty query", single(#"[{"/":"/x","?":""}]"#), "https://example.com/x?", "A 0.0"),
        MatchCase("string: * swallows &", single(#"[{"/":"/x","?":"ref=*"}]"#), "https://example.com/x?ref=abc&utm=1", "A 0.0"),
        MatchCase("string: compared encoded", single(#"[{"?":"q=a b"}]"#), "https://example.com/x?q=a%20b", "none"),
        MatchCase(
            "string: decoded when percentEncoded false", single(#"[{"?":"q=a b","percentEncoded":false}]"#),
            "https://example.com/x?q=a%20b", "A 0.0"),
        MatchCase(
            "dict: Apple example", single(#"[{"/":"/x","?":{"productID":"12345"}}]"#), "https://example.com/x?productID=12345", "A 0.0"),
        MatchCase(
            "dict: extra items and order ignored", single(#"[{"?":{"a":"1","b":"2"}}]"#), "https://example.com/x?z=9&b=2&a=1", "A 0.0"),
        MatchCase("dict: every key must match", single(#"[{"?":{"a":"1","b":"2"}}]"#), "https://example.com/x?a=1&b=3", "none"),
        MatchCase("dict: absent item with * matches", single(#"[{"?":{"b":"*"}}]"#), "https://example.com/x?a=1", "A 0.0"),
        MatchCase("dict: absent item with empty pattern matches", single(#"[{"?":{"b":""}}]"#), "https://example.com/x", "A 0.0"),
        MatchCase("dict: absent item with ?* fails", single(#"[{"?":{"b":"?*"}}]"#), "https://example.com/x?a=1", "none"),
        MatchCase("dict: absent item with a literal fails", single(#"[{"?":{"b":"1"}}]"#), "https://example.com/x", "none"),
        MatchCase("dict: valueless item is empty", single(#"[{"?":{"flag":""}}]"#), "https://example.com/x?flag", "A 0.0"),
        MatchCase("dict: valueless item fails ?*", single(#"[{"?":{"flag":"?*"}}]"#), "https://example.com/x?flag", "none"),
        MatchCase("dict: repeated names must all match", single(#"[{"?":{"id":"42"}}]"#), "https://example.com/x?id=7&id=42", "none"),
        MatchCase("dict: repeated names all matching", single(#"[{"?":{"id":"42"}}]"#), "https://example.com/x?id=42&id=42", "A 0.0"),
        MatchCase("dict: value patterns ????", single(#"[{"?":{"n":"????"}}]"#), "https://example.com/x?n=481", "none"),
        MatchCase("dict: value patterns prefix", single(#"[{"?":{"c":"camp_*"}}]"#), "https://example.com/x?c=camp_1", "A 0.0"),
        MatchCase("dict: value split at the first =", single(#"[{"?":{"a":"b=c"}}]"#), "https://example.com/x?a=b=c", "A 0.0"),
        MatchCase(
            "dict: non-string value voids the dictionary", single(#"[{"/":"/x","?":{"a":"1","b":true}}]"#), "https://example.com/x?zzz",
            "A 0.0"),
        MatchCase(
            "dict: voided dictionary overrides defaults", single(#"[{"?":{"a":1}}]"#, defaults: #"{"?":{"b":"1"}}"#),
            "https://example.com/x", "A 0.0"),
        MatchCase("dict: encoded by default", single(#"[{"?":{"q":"a b"}}]"#), "https://example.com/x?q=a%20b", "none"),
        MatchCase(
            "dict: decoded when percentEncoded false", single(#"[{"?":{"q":"a b"},"percentEncoded":false}]"#),
            "https://example.com/x?q=a%20b", "A 0.0"),
        MatchCase(
            "dict: names and values case-insensitive", single(#"[{"?":{"ID":"Ab"},"caseSensitive":false}]"#), "https://example.com/x?id=aB",
            "A 0.0"),
        MatchCase("dict: names case-sensitive by default", single(#"[{"?":{"ID":"1"}}]"#), "https://example.com/x?id=1", "none"),
        MatchCase("dict: + is not a space", single(#"[{"?":{"q":"a b"},"percentEncoded":false}]"#), "https://example.com/x?q=a+b", "none"),
        MatchCase("fragment: exact", single(##"[{"#":"top"}]"##), "https://example.com/x#top", "A 0.0"),
        MatchCase("fragment: absent is empty", single(##"[{"#":"top"}]"##), "https://example.com/x", "none"),
        MatchCase("fragment: * matches absent", single(##"[{"/":"/x","#":"*"}]"##), "https://example.com/x", "A 0.0"),
        MatchCase("fragment: ?* needs one", single(##"[{"#":"?*"}]"##), "https://example.com/x", "none"),
        MatchCase("fragment: empty pattern matches absent", single(##"[{"#":""}]"##), "https://example.com/x", "A 0.0"),
        MatchCase("fragment: SPA route", single(##"[{"/":"/","#":"/market/*"}]"##), "https://example.com/#/market/lettings/1", "A 0.0"),
        MatchCase(
            "fragment: exclusion first", single(##"[{"#":"nope","exclude":true},{"/":"/buy/*"}]"##), "https://example.com/buy/1#nope",
            "blocked 0.0"),
        MatchCase("all components must match", single(##"[{"/":"abc","?":"def","#":"*"}]"##), "https://example.com/abc", "none"),
        MatchCase("all components match", single(##"[{"/":"abc","?":"def","#":"*"}]"##), "https://example.com/abc?def", "A 0.0"),
    ]

    @Test(arguments: cases)
    func matches(_ row: MatchCase) throws {
        #expect(try outcome(row.aasa, row.url) == row.expected)
    }
}
