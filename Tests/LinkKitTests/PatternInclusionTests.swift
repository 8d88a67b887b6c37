import Testing
@testable import LinkKit

/// The inclusion test of the reachability lint, held against the matcher: for generated pairs of patterns, an
/// "included" answer is checked on texts generated from the included pattern, and a "not included" answer's witness
/// must be matched by the included pattern and by no covering one.
@Suite("Pattern inclusion")
struct PatternInclusionTests {
    static let variables = ["v": ["ab", "b*"]]

    static func pattern(_ text: String) -> Pattern { Pattern(text, caseSensitive: true, variables: variables) }

    /// A short random pattern over `a`, `b`, `/` with `?`, `*` and, now and then, a variable or a class.
    static func randomPattern(_ random: inout SeededRandom) -> String {
        let pieces = ["a", "b", "/", "a", "b", "?", "*", "*", "?*", "$(v)", "$(digit)", "1"]
        return (0..<(1 + Int(random.next() % 5))).map { _ in random.pick(pieces) }.joined()
    }

    /// A text `pattern` matches: `*` and `?` filled at random (variables by one of their values, classes by a digit).
    static func sample(_ pattern: String, _ random: inout SeededRandom) -> String {
        var out = ""
        var rest = Substring(pattern)
        while let first = rest.first {
            if rest.hasPrefix("$(v)") { out += sample(random.pick(variables["v"]!), &random); rest = rest.dropFirst(4); continue }
            if rest.hasPrefix("$(digit)") { out += random.pick(["0", "1", "7"]); rest = rest.dropFirst(8); continue }
            switch first {
            case "*": out += (0..<Int(random.next() % 4)).map { _ in random.pick(["a", "b", "/", "x", "1", "é"]) }.joined()
            case "?": out += random.pick(["a", "b", "/", "x", "1", "é"])
            default: out.append(first)
            }
            rest = rest.dropFirst()
        }
        return out
    }

    @Test(arguments: 0..<8)
    func answersAgreeWithTheMatcher(_ seed: Int) {
        var random = SeededRandom(seed: UInt64(seed) &* 104_729 &+ 11)
        var included = 0
        var excluded = 0
        for _ in 0..<400 {
            let coverText = Self.randomPattern(&random)
            // Half the time a specialisation of the cover (a wildcard narrowed), so inclusions are frequent.
            let text =
                random.next() % 2 == 0
                ? Self.randomPattern(&random)
                : coverText.replacingOccurrences(of: "*", with: random.pick(["a", "?", "a*", "/b", "", "*"]))
            let (sub, cover) = (Self.pattern(text), Self.pattern(coverText))
            switch PatternInclusion.answer(sub, coveredBy: [cover]) {
            case .included:
                included += 1
                for _ in 0..<30 {
                    let sample = Array(Self.sample(text, &random).utf8)
                    #expect(
                        sub.matches(sample) && cover.matches(sample),
                        "'\(text)' ⊆ '\(coverText)' but '\(String(decoding: sample, as: UTF8.self))'")
                }
            case .notIncluded(let witness):
                excluded += 1
                let bytes = Array(witness.utf8)
                #expect(sub.matches(bytes) && !cover.matches(bytes), "'\(text)' ⊄ '\(coverText)': witness '\(witness)'")
            case .unknown:
                Issue.record("no answer for '\(text)' ⊆ '\(coverText)'")
            }
        }
        #expect(included > 40 && excluded > 40, "\(included) included, \(excluded) not")
    }

    @Test func knownCases() {
        func answer(_ text: String, _ covers: [String]) -> Bool {
            PatternInclusion.answer(Self.pattern(text), coveredBy: covers.map(Self.pattern)) == .included
        }
        #expect(answer("/c/sale", ["/c/?*"]))
        #expect(!answer("/c/", ["/c/?*"]))
        #expect(answer("/c/?*", ["/c/*"]))
        #expect(!answer("/c/*", ["/c/?*"]))
        #expect(answer("/c/*", ["/c/?*", "/c/"]))
        #expect(answer("/a?b", ["/a*b"]))
        #expect(!answer("/a*b", ["/a?b"]))
        #expect(answer("/$(v)", ["/a*", "/b*"]))
        #expect(!answer("/$(v)", ["/a*"]))
        #expect(answer("/$(digit)", ["/?"]))
        #expect(!answer("/?", ["/$(digit)"]))
        #expect(answer("*a*a*", ["*a*"]))
        #expect(!answer("*a*", ["*a*a*"]))
        // Paths: a trailing `/` never reaches the matcher.
        #expect(PatternInclusion.answer(Self.pattern("/c/*"), coveredBy: [Self.pattern("/c/?*")], isPath: true) == .included)
        #expect(PatternInclusion.answer(Self.pattern("/c/*"), coveredBy: [Self.pattern("/c/?*")]) == .notIncluded(witness: "/c/"))
        #expect(
            PatternInclusion.answer(Self.pattern("/c*"), coveredBy: [Self.pattern("/c/?*")], isPath: true) == .notIncluded(witness: "/c"))
    }
}
