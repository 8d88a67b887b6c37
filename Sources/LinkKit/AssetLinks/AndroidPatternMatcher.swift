/// Android's `android.os.PatternMatcher` semantics, which decide an intent filter's `<data>` path attributes
/// (docs/ANDROID.md): `path` is an exact compare, `pathPrefix` a prefix, `pathPattern` a simple glob and
/// `pathAdvancedPattern` a regex-like pattern, both matched in one pass that never backtracks. Android compares
/// Java strings, so matching walks UTF-16 code units.
public struct AndroidPatternMatcher: Sendable, Hashable {
    /// Which of `PatternMatcher`'s pattern types.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `PATTERN_LITERAL` (`android:path`).
        case literal
        /// `PATTERN_PREFIX` (`android:pathPrefix`).
        case prefix
        /// `PATTERN_SIMPLE_GLOB` (`android:pathPattern`): `.` any character, `x*` zero or more `x`, `.*` any run
        /// (up to the first occurrence of the character after it), `\` escapes.
        case simpleGlob
        /// `PATTERN_ADVANCED_GLOB` (`android:pathAdvancedPattern`, API 31): `.`, sets `[a-z]`/`[^/]`, and the
        /// modifiers `*`, `+`, `{n}`/`{n,m}`/`{n,}`, each taking as many characters as it can.
        case advancedGlob
    }

    public let pattern: String
    public let kind: Kind
    /// The pattern's UTF-16 code units.
    private let units: [UInt16]
    /// The parsed advanced pattern; empty for the other kinds (the router table writes them).
    let tokens: [Token]

    /// One token of an advanced pattern with its repetition bounds.
    struct Token: Sendable, Hashable {
        enum Match: Sendable, Hashable {
            case any
            case literal(UInt16)
            /// Inclusive ranges; `inverted` for `[^...]`.
            case set([ClosedRange<UInt16>], inverted: Bool)
        }

        let match: Match
        let minimum: Int
        let maximum: Int

        func accepts(_ unit: UInt16) -> Bool {
            switch match {
            case .any: return true
            case .literal(let expected): return unit == expected
            case .set(let ranges, let inverted): return ranges.contains { $0.contains(unit) } != inverted
            }
        }
    }

    /// Compiles a pattern.
    /// - Parameters:
    ///   - pattern: the attribute's value after Android has read it from XML (escapes already single).
    ///   - kind: the pattern type.
    /// - Throws: `LinkKitError` `.invalidPattern` for an advanced pattern Android refuses (an unterminated set or
    ///   range, a modifier with nothing before it, an escape at the end).
    public init(_ pattern: String, kind: Kind) throws(LinkKitError) {
        self.pattern = pattern
        self.kind = kind
        units = Array(pattern.utf16)
        tokens = kind == .advancedGlob ? try Self.parseAdvanced(units) : []
    }

    /// Whether `text` (a decoded path) matches.
    public func matches(_ text: String) -> Bool { matches(utf16: Array(text.utf16)) }

    /// Whether a decoded path, as UTF-16 code units, matches.
    public func matches(utf16 input: [UInt16]) -> Bool {
        switch kind {
        case .literal: return input == units
        case .prefix: return input.starts(with: units)
        case .simpleGlob: return Self.simpleGlob(units, input)
        case .advancedGlob: return Self.advanced(tokens, input)
        }
    }

    private static let dot = UInt16(UInt8(ascii: "."))
    private static let star = UInt16(UInt8(ascii: "*"))
    private static let backslash = UInt16(UInt8(ascii: "\\"))

    /// The simple glob, read left to right once: a character (or `.`, any character) followed by `*` takes every
    /// following input character equal to it; `.*` takes input up to the first character equal to the pattern's
    /// next one, which must then match (there is no second try with a longer run).
    /// Restated, line for line, in the generated Swift router's runtime (`Codegen/Runtime/SwiftAndroidMatcher.swift`):
    /// that file ships inside apps, which cannot depend on linkd; a change here is made there too (router fixtures).
    static func simpleGlob(_ pattern: [UInt16], _ input: [UInt16]) -> Bool {
        if pattern.isEmpty { return input.isEmpty }
        var p = 0
        var s = 0
        while p < pattern.count, s < input.count {
            var unit = pattern[p]
            p += 1
            let escaped = unit == backslash
            if escaped {
                unit = p < pattern.count ? pattern[p] : 0
                p += 1
            }
            let starred = p < pattern.count && pattern[p] == star
            if !starred {
                if !(unit == dot && !escaped) && input[s] != unit { return false }
                s += 1
                continue
            }
            p += 1 // the `*`
            if unit == dot && !escaped {
                // `.*` at the very end takes the rest.
                guard p < pattern.count else { return true }
                var next = pattern[p]
                if next == backslash, p + 1 < pattern.count {
                    p += 1
                    next = pattern[p]
                }
                while s < input.count, input[s] != next { s += 1 }
                guard s < input.count else { return false }
                p += 1
                s += 1
            } else {
                while s < input.count, input[s] == unit { s += 1 }
            }
        }
        if p >= pattern.count && s >= input.count { return true }
        // The input ran out with a trailing `.*` left, which takes nothing.
        return p == pattern.count - 2 && pattern[p] == dot && pattern[p + 1] == star
    }

    /// The advanced pattern: each token takes as many characters as it accepts, up to its maximum, and must take
    /// at least its minimum; both pattern and input must be used up.
    static func advanced(_ tokens: [Token], _ input: [UInt16]) -> Bool {
        var s = 0
        for token in tokens {
            var taken = 0
            while taken < token.maximum, s + taken < input.count, token.accepts(input[s + taken]) { taken += 1 }
            guard taken >= token.minimum else { return false }
            s += taken
        }
        return s >= input.count
    }

    private static func parseAdvanced(_ units: [UInt16]) throws(LinkKitError) -> [Token] {
        func fail(_ why: String) -> LinkKitError {
            LinkKitError(.invalidPattern, "pathAdvancedPattern '\(String(decoding: units, as: UTF16.self))': \(why)")
        }
        func ascii(_ character: Character) -> UInt16 { UInt16(character.asciiValue!) }
        var tokens: [Token] = []
        var i = 0
        // Reads the matches, then applies modifiers to the last one.
        var pendingModifier = false
        func push(_ match: Token.Match) {
            tokens.append(Token(match: match, minimum: 1, maximum: 1))
            pendingModifier = true
        }
        func modify(_ minimum: Int, _ maximum: Int) throws(LinkKitError) {
            guard pendingModifier, let last = tokens.popLast() else { throw fail("a modifier must follow a token") }
            tokens.append(Token(match: last.match, minimum: minimum, maximum: maximum))
            pendingModifier = false
        }
        while i < units.count {
            let unit = units[i]
            switch unit {
            case ascii("["):
                var j = i + 1
                let inverted = j < units.count && units[j] == ascii("^")
                if inverted { j += 1 }
                var ranges: [ClosedRange<UInt16>] = []
                while j < units.count, units[j] != ascii("]") {
                    // `\` takes the next character as a member.
                    if units[j] == ascii("\\"), j + 1 < units.count { j += 1 }
                    let low = units[j]
                    if j + 2 < units.count, units[j + 1] == ascii("-"), units[j + 2] != ascii("]") {
                        let high = units[j + 2]
                        ranges.append(low <= high ? low...high : high...low)
                        j += 3
                    } else {
                        ranges.append(low...low)
                        j += 1
                    }
                }
                guard j < units.count else { throw fail("a set is not terminated with ']'") }
                guard !ranges.isEmpty else { throw fail("a set needs characters") }
                push(.set(ranges, inverted: inverted))
                i = j + 1
                continue
            case ascii("{"):
                guard let close = units[(i + 1)...].firstIndex(of: ascii("}")) else { throw fail("a range is not terminated with '}'") }
                let text = String(decoding: units[(i + 1)..<close], as: UTF16.self)
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                guard (1...2).contains(parts.count), let minimum = Int(parts[0]) else {
                    throw fail("range '{\(text)}' is not {n}, {n,} or {n,m}")
                }
                let maximum = parts.count == 1 ? minimum : parts[1].isEmpty ? Int.max : Int(parts[1])
                guard let maximum, minimum <= maximum else { throw fail("range '{\(text)}' is not {n}, {n,} or {n,m}") }
                try modify(minimum, maximum)
                i = close + 1
                continue
            case ascii("*"): try modify(0, Int.max)
            case ascii("+"): try modify(1, Int.max)
            case ascii("."): push(.any)
            case ascii("\\"):
                guard i + 1 < units.count else { throw fail("an escape is at the end") }
                i += 1
                push(.literal(units[i]))
            default: push(.literal(unit))
            }
            i += 1
        }
        return tokens
    }
}
