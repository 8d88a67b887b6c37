import Testing
@testable import LinkKit

/// The compiled pattern engine on its own (byte-level matching, no URL normalisation).
@Suite struct PatternTests {
    static let variables = ["food": ["pizza", "pi*", "s?up", ""], "e": [String]()]

    @Test(arguments: [
        ("abc", "abc", true), ("abc", "abcd", false), ("a*c", "abbbc", true), ("a*c", "ac", true), ("a?c", "ac", false),
        ("*", "", true), ("?", "", false), ("?*", "x", true), ("?*", "", false), ("**", "x", true), ("a**b", "ab", true),
        ("?", "é", true), ("??", "é", false), ("*é", "café", true), ("a*b*c", "a-b-b-c", true), ("a*b*c", "a-c-b", false),
        ("$(food)", "pizza", true), ("$(food)", "pickle", true), ("$(food)", "soup", true), ("$(food)", "", true),
        ("x$(food)y", "xy", true), ("$(food)$(food)", "pizzapi", true), ("$(food)", "tacos", false),
        ("$(e)", "", false), ("$(nope)", "", false), ("$(food", "$(food", false), ("a$", "a$", true),
        ("$(digit)$(alpha)", "1a", true), ("$(digit)$(alpha)", "a1", false), ("$(xdigit)", "F", true), ("$(alnum)", "_", false),
        ("$(lang)-$(region)", "haw-US", true), ("$(lang)-$(region)", "en-UK", false), ("*$(digit)", "abc7", true),
    ])
    func matchesCaseSensitively(_ pattern: String, _ input: String, _ expected: Bool) {
        #expect(Pattern(pattern, caseSensitive: true, variables: Self.variables).matches(Array(input.utf8)) == expected)
    }

    @Test(arguments: [
        ("ABC", "abc", true), ("$(upper)", "q", true), ("$(lower)", "q", true), ("$(region)", "gb", true),
        ("$(food)", "pizza", true), ("PIZZA", "pizza", true),
    ])
    func matchesCaseInsensitively(_ pattern: String, _ lowercasedInput: String, _ expected: Bool) {
        // Case-insensitive patterns are compiled lower-cased and fed lower-cased input (MatchSubject does that).
        let compiled = Pattern(pattern, caseSensitive: false, variables: Self.variables)
        #expect(compiled.matches(Array(lowercasedInput.utf8)) == expected)
    }

    /// Patterns are stored as one code buffer; ASCII patterns without `$` are read byte by byte, the others by
    /// character: both give these elements.
    /// Patterns are compiled in one pass over their bytes when they are ASCII; every pattern compiles to the
    /// elements a reading of its characters finds (`*` runs are one star; no variables here).
    @Test func patternsCompileToTheElementsTheirCharactersSpell() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "B", "/", "*", "?", "-", "$", "$(x)", "\u{3}", String(repeating: "L", count: 130), "É", "Zz"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let caseSensitive = Bool.random(using: &generator)
            var expected: [Pattern.Element] = []
            var literal = ""
            func flush() {
                if !literal.isEmpty { expected.append(.literal(Array((caseSensitive ? literal : literal.lowercased()).utf8))) }
                literal = ""
            }
            for character in text {
                switch character {
                case "*":
                    flush()
                    if expected.last != .star { expected.append(.star) }
                case "?":
                    flush()
                    expected.append(.one)
                default:
                    literal.append(character)
                }
            }
            flush()
            #expect(Pattern(text, caseSensitive: caseSensitive, variables: nil).elements == expected, "\(text)")
        }
    }

    @Test func elementsAsCompiled() {
        #expect(
            Pattern("/Shop/**?x", caseSensitive: false, variables: nil).elements == [
                .literal(Array("/shop/".utf8)), .star, .one, .literal([UInt8(ascii: "x")]),
            ])
        #expect(Pattern("/Shop/*", caseSensitive: true, variables: nil).elements == [.literal(Array("/Shop/".utf8)), .star])
        #expect(Pattern("/Café/*?", caseSensitive: false, variables: nil).elements == [.literal(Array("/café/".utf8)), .star, .one])
        #expect(Pattern("a$b", caseSensitive: true, variables: [:]).elements == [.literal(Array("a$b".utf8))])
        #expect(Pattern("", caseSensitive: true, variables: nil).elements.isEmpty)
        let long = String(repeating: "x", count: 300)
        #expect(Pattern(long + "*", caseSensitive: true, variables: nil).elements == [.literal(Array(long.utf8)), .star])
        #expect(Pattern(long + "*", caseSensitive: true, variables: nil).matches(Array((long + "yz").utf8)))
    }

    @Test func literalPrefixStopsAtTheFirstWildcard() {
        #expect(Pattern("/shop/$(lang)/*", caseSensitive: true, variables: [:]).literalPrefix == Array("/shop/".utf8))
        #expect(Pattern("/Shop/?", caseSensitive: false, variables: [:]).literalPrefix == Array("/shop/".utf8))
        #expect(Pattern("*x", caseSensitive: true, variables: [:]).literalPrefix.isEmpty)
    }

    @Test func variablesWithManyStarsStayFast() {
        let pattern = Pattern(String(repeating: "*$(food)", count: 12) + "!", caseSensitive: true, variables: Self.variables)
        let input = Array(String(repeating: "pizza", count: 100).utf8)
        let elapsed = ContinuousClock().measure { #expect(!pattern.matches(input)) }
        #expect(elapsed < .seconds(5))
    }
}
