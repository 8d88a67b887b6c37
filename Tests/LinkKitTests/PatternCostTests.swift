import Testing
@testable import LinkKit

/// The glob's shortcuts (a literal tail compared with the input's end, a last `*` taking the rest, the skip to a
/// literal's first byte) and the variable search's linear `*` decide exactly as the plain algorithms they
/// replace, which are kept here as the reference; and the scan weight that bounds a rule set's cost.
@Suite struct PatternCostTests {
    /// The two-pointer glob without shortcuts.
    static func referenceGlob(_ code: [UInt8], _ input: [UInt8]) -> Bool {
        code.withUnsafeBufferPointer { code in
            input.withUnsafeBufferPointer { input in
                var (p, s, starP, starS) = (0, 0, -1, 0)
                while p < code.count || s < input.count {
                    if p < code.count {
                        switch code[p] {
                        case Pattern.Code.star:
                            (starP, starS) = (p, s)
                            p += 1
                            continue
                        case Pattern.Code.one:
                            if s < input.count { s = Pattern.nextScalar(input, s); p += 1; continue }
                        case Pattern.Code.literal:
                            let bytes = Pattern.Code.literalBytes(code, at: p)
                            if Pattern.hasLiteral(UnsafeBufferPointer(rebasing: code[bytes]), input, at: s) {
                                s += bytes.count
                                p = bytes.upperBound
                                continue
                            }
                        default:
                            return false
                        }
                    }
                    guard starP >= 0, starS < input.count else { return false }
                    starS = Pattern.nextScalar(input, starS)
                    s = starS
                    p = starP + 1
                }
                return true
            }
        }
    }

    /// The recursive search with the `*` trying every end, longest first.
    static func referenceSearch(_ elements: [Pattern.Element], _ e: Int, _ s: Int, _ input: [UInt8]) -> Bool {
        if e == elements.count { return s == input.count }
        return input.withUnsafeBufferPointer { buffer in
            switch elements[e] {
            case .literal(let bytes):
                return Pattern.hasLiteral(bytes, buffer, at: s) && referenceSearch(elements, e + 1, s + bytes.count, input)
            case .one:
                return s < input.count && referenceSearch(elements, e + 1, Pattern.nextScalar(buffer, s), input)
            case .star:
                return (s...input.count).reversed().contains {
                    Pattern.isBoundary(buffer, $0) && referenceSearch(elements, e + 1, $0, input)
                }
            case .variable(.characterClass(let characterClass, let anyCase)):
                return s < input.count && characterClass.contains(input[s], anyCase: anyCase)
                    && referenceSearch(elements, e + 1, s + 1, input)
            case .variable(.alternatives(let alternatives)):
                return alternatives.contains { referenceSearch($0 + Array(elements[(e + 1)...]), 0, s, input) }
            case .variable:
                return false
            }
        }
    }

    static let pieces = ["a", "b", "ab", "*", "?", "é", "/", "$(v)", "$(digit)"]
    static let bytes: [UInt8] = [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "/"), UInt8(ascii: "1"), 0xC3, 0xA9, 0x80]

    @Test func shortcutsDecideAsThePlainGlob() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...7, using: &generator)).map { _ in Self.pieces.prefix(7).randomElement(using: &generator)! }
                .joined()
            let pattern = Pattern(text, caseSensitive: true, variables: nil)
            // Inputs of valid and malformed UTF-8 alike: percent-decoding can yield either.
            let input = (0..<Int.random(in: 0...9, using: &generator)).map { _ in Self.bytes.randomElement(using: &generator)! }
            #expect(pattern.matches(input) == Self.referenceGlob(pattern.code, input), "\(text) \(input)")
        }
    }

    @Test func linearStarDecidesAsTheFullSearch() {
        var generator = SystemRandomNumberGenerator()
        let variables = ["v": ["a", "b*", "?a", ""]]
        for _ in 0..<5_000 {
            let text =
                (0..<Int.random(in: 1...6, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined() + "$(v)"
            let pattern = Pattern(text, caseSensitive: true, variables: variables)
            let input = (0..<Int.random(in: 0...8, using: &generator)).map { _ in Self.bytes.randomElement(using: &generator)! }
            #expect(pattern.matches(input) == Self.referenceSearch(pattern.variableElements, 0, 0, input), "\(text) \(input)")
        }
    }

    @Test(arguments: [
        ("/products/*", 0), ("*.pdf", 1), ("/a/*/b", 1), ("/exact", 0), ("*", 0), ("/*/items/*", 8), ("/*a*a*b7", 3),
        ("/*a*a*b7*", 5), ("/*?", 2), ("/*x?y", 4), ("/$(lang)/*", 0), ("/*$(digit)", 2), ("/$(v)/*", 3), ("/*$(v)", 1_025),
    ])
    func scanWeights(_ text: String, _ weight: Int) {
        #expect(Pattern(text, caseSensitive: true, variables: ["v": ["a", "b*"]]).scanWeight == weight)
    }

    /// The rule set of issue 27 that made one click cost 0.1 s: each rule weighs 9 and every URL meets all 4,000.
    /// Rules as many with distinct literal prefixes never meet on one URL.
    @Test func aURLIsChargedForTheRulesItCanMeet() throws {
        func cost(_ path: (Int) -> String) throws -> (weight: Int, crossing: Int?) {
            let rules = try (0..<4_000).map { LinkRule(id: "r\($0)", apps: [], path: try RulePattern(path($0))) }
            return CompiledDomain(settings: DomainSettings(hostname: "example.com"), apps: [], rules: rules).scanCost
        }
        let hostile = try cost { "/*a*a*a*a*a*a*a*a*b\($0)" }
        #expect(hostile.weight == 36_000)
        #expect(hostile.crossing == 113) // 114 × 9 = 1,026
        let ordinary = try cost { "/section\($0)/*" }
        #expect(ordinary.weight == 0 && ordinary.crossing == nil)
        let suffixed = try cost { "/s\($0)/*/x.pdf" }
        #expect(suffixed.weight == 1 && suffixed.crossing == nil)
        // Case-insensitive rules meet the case-sensitive ones their prefix starts, whatever its case.
        let mixed = try (0..<200).map { n in
            LinkRule(
                id: "r\(n)", apps: [], path: try RulePattern(n.isMultiple(of: 2) ? "/Items/*a*b\(n)" : "/items/x/*a*b\(n)"),
                caseSensitive: n.isMultiple(of: 2) ? nil : false)
        }
        #expect(CompiledDomain(settings: DomainSettings(hostname: "example.com"), apps: [], rules: mixed).scanCost.weight == 400)
    }
}
