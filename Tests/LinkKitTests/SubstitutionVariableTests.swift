import Testing
@testable import LinkKit

/// §7: substitution variables, declared and built in.
@Suite struct SubstitutionVariableTests {
    static let food = #"{"food":["burrito","pizza","pi*","so?p"]}"#
    static let locale = single(#"[{"/":"/$(lang)_$(region)/$(food)/"}]"#, variables: food)

    static let cases: [MatchCase] = [
        MatchCase("declared value", single(#"[{"/":"/$(food)"}]"#, variables: food), "https://example.com/pizza", "A 0.0"),
        MatchCase("undeclared value", single(#"[{"/":"/$(food)"}]"#, variables: food), "https://example.com/tacos", "none"),
        MatchCase("value with *", single(#"[{"/":"/$(food)"}]"#, variables: food), "https://example.com/pickle", "A 0.0"),
        MatchCase("value with ?", single(#"[{"/":"/$(food)"}]"#, variables: food), "https://example.com/soup", "A 0.0"),
        MatchCase("undefined never matches", single(#"[{"/":"/$(drink)"}]"#, variables: food), "https://example.com/pizza", "none"),
        MatchCase("names are case-sensitive", single(#"[{"/":"/$(Food)"}]"#, variables: food), "https://example.com/pizza", "none"),
        MatchCase("unterminated $( never matches", single(#"[{"/":"/$(food"}]"#, variables: food), "https://example.com/$(food", "none"),
        MatchCase("lang and region", locale, "https://example.com/en_US/pizza/", "A 0.0"),
        MatchCase("unknown lang and region", locale, "https://example.com/qq_ZZ/pizza/", "none"),
        MatchCase("three-letter lang", locale, "https://example.com/haw_US/burrito", "A 0.0"),
        MatchCase("region GB", single(#"[{"/":"/$(region)/home"}]"#), "https://example.com/GB/home", "A 0.0"),
        MatchCase("region UK is not a region", single(#"[{"/":"/$(region)/home"}]"#), "https://example.com/UK/home", "none"),
        MatchCase("region is case-sensitive", single(#"[{"/":"/$(region)/home"}]"#), "https://example.com/gb/home", "none"),
        MatchCase(
            "region folded when case-insensitive", single(#"[{"/":"/$(region)/home","caseSensitive":false}]"#),
            "https://example.com/gb/home", "A 0.0"),
        MatchCase("digit is one character", single(#"[{"/":"/d/$(digit)"}]"#), "https://example.com/d/42", "none"),
        MatchCase("two digits", single(#"[{"/":"/d/$(digit)$(digit)"}]"#), "https://example.com/d/42", "A 0.0"),
        MatchCase("digit rejects a letter", single(#"[{"/":"/d/$(digit)"}]"#), "https://example.com/d/x", "none"),
        MatchCase("upper", single(#"[{"/":"/u/$(upper)"}]"#), "https://example.com/u/Q", "A 0.0"),
        MatchCase("upper rejects lower", single(#"[{"/":"/u/$(upper)"}]"#), "https://example.com/u/q", "none"),
        MatchCase(
            "upper folded when case-insensitive", single(#"[{"/":"/u/$(upper)","caseSensitive":false}]"#), "https://example.com/u/q",
            "A 0.0"),
        MatchCase("lower", single(#"[{"/":"/l/$(lower)"}]"#), "https://example.com/l/q", "A 0.0"),
        MatchCase("lower rejects upper", single(#"[{"/":"/l/$(lower)"}]"#), "https://example.com/l/Q", "none"),
        MatchCase("alpha", single(#"[{"/":"/a/$(alpha)"}]"#), "https://example.com/a/Z", "A 0.0"),
        MatchCase("alpha rejects digit", single(#"[{"/":"/a/$(alpha)"}]"#), "https://example.com/a/1", "none"),
        MatchCase("alnum", single(#"[{"/":"/n/$(alnum)$(alnum)"}]"#), "https://example.com/n/a1", "A 0.0"),
        MatchCase("alnum rejects -", single(#"[{"/":"/n/$(alnum)"}]"#), "https://example.com/n/-", "none"),
        MatchCase("xdigit", single(#"[{"/":"/x/$(xdigit)"}]"#), "https://example.com/x/f", "A 0.0"),
        MatchCase("xdigit rejects g", single(#"[{"/":"/x/$(xdigit)"}]"#), "https://example.com/x/g", "none"),
        MatchCase(
            "declared shadows built-in", single(#"[{"/":"/d/$(digit)"}]"#, variables: #"{"digit":["x"]}"#), "https://example.com/d/x",
            "A 0.0"),
        MatchCase("variables in the query dictionary", single(#"[{"?":{"r":"$(region)"}}]"#), "https://example.com/?r=FR", "A 0.0"),
        MatchCase("variables in the fragment", single(##"[{"#":"$(food)"}]"##, variables: food), "https://example.com/#burrito", "A 0.0"),
        MatchCase("variable then star", single(#"[{"/":"/$(lang)/*"}]"#), "https://example.com/fr/a/b", "A 0.0"),
        MatchCase(
            "values do not nest", single(#"[{"/":"/$(v)"}]"#, variables: #"{"v":["$(food)"],"food":["pizza"]}"#),
            "https://example.com/pizza", "none"),
        MatchCase(
            "WWDC pair, exclusion",
            single(
                #"[{"/":"/CA/$(lang)_CA/$(food)","exclude":true},{"/":"/$(region)/$(lang)_$(region)/$(food)"}]"#,
                domainDefaults: #"{"caseSensitive":false,"percentEncoded":false}"#, variables: food), "https://example.com/ca/fr_CA/pizza",
            "blocked 0.0"),
        MatchCase(
            "WWDC pair, folded",
            single(
                #"[{"/":"/CA/$(lang)_CA/$(food)","exclude":true},{"/":"/$(region)/$(lang)_$(region)/$(food)"}]"#,
                domainDefaults: #"{"caseSensitive":false,"percentEncoded":false}"#, variables: food), "https://example.com/us/EN_us/PIZZA",
            "A 0.1"),
    ]

    @Test(arguments: cases)
    func matches(_ row: MatchCase) throws {
        #expect(try outcome(row.aasa, row.url) == row.expected)
    }

    @Test func builtInListsAreShipped() {
        #expect(BuiltInVariables.regions.contains("GB") && !BuiltInVariables.regions.contains("UK"))
        #expect(BuiltInVariables.regions.allSatisfy { $0.count == 2 })
        #expect(BuiltInVariables.languages.contains("en") && BuiltInVariables.languages.contains("haw"))
        #expect(!BuiltInVariables.languages.contains("qq"))
    }
}
