/// An AASA pattern compiled to elements over UTF-8 bytes: literals, `?` (one character), `*` (any run) and
/// substitution variables (AASA-SEMANTICS §4, §7). There is no escape syntax: `*`, `?` and `$(` are always special.
///
/// Case-insensitive patterns are compiled lower-cased and matched against lower-cased input, so matching itself
/// never folds case.
struct Pattern: Sendable, Hashable {
    enum Element: Sendable, Hashable {
        case literal([UInt8])
        case one
        case star
        case variable(Variable)
    }

    enum Variable: Sendable, Hashable {
        /// A built-in one-character class; `anyCase` when compiled case-insensitively.
        case characterClass(CharacterClass, anyCase: Bool)
        /// Declared or built-in values; each alternative has no variables of its own.
        case alternatives([[Element]])
        /// Undefined, or unterminated `$(`: never matches (AASA-SEMANTICS §7, case sv-27).
        case never
    }

    enum CharacterClass: Sendable, Hashable {
        case alpha, upper, lower, alnum, digit, xdigit
    }

    let elements: [Element]
    let hasVariables: Bool

    /// Compiles `text`.
    /// - Parameters:
    ///   - text: the pattern as written.
    ///   - caseSensitive: false to lower-case literals and variable values.
    ///   - variables: declared substitution variables; nil disables `$(...)` (variable values cannot nest).
    init(_ text: String, caseSensitive: Bool, variables: [String: [String]]?) {
        var elements: [Element] = []
        var literal = ""
        var hasVariables = false
        func flush() {
            guard !literal.isEmpty else { return }
            let bytes = Array((caseSensitive ? literal : literal.lowercased()).utf8)
            if case .literal(let previous)? = elements.last {
                elements[elements.count - 1] = .literal(previous + bytes)
            } else {
                elements.append(.literal(bytes))
            }
            literal = ""
        }
        var rest = Substring(text)
        while let character = rest.first {
            if character == "*" {
                flush()
                if elements.last != .star { elements.append(.star) }
                rest = rest.dropFirst()
            } else if character == "?" {
                flush()
                elements.append(.one)
                rest = rest.dropFirst()
            } else if let variables, rest.hasPrefix("$(") {
                flush()
                hasVariables = true
                guard let close = rest.firstIndex(of: ")") else {
                    elements.append(.variable(.never))
                    break
                }
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                elements.append(.variable(Self.resolve(name, caseSensitive: caseSensitive, variables: variables)))
                rest = rest[rest.index(after: close)...]
            } else {
                literal.append(character)
                rest = rest.dropFirst()
            }
        }
        flush()
        self.elements = elements
        self.hasVariables = hasVariables
    }

    /// The bytes every matching input starts with (empty when the pattern starts with a wildcard).
    var literalPrefix: [UInt8] {
        if case .literal(let bytes)? = elements.first { return bytes }
        return []
    }

    /// True when the pattern is a lone `*`, which matches every input.
    var matchesEverything: Bool { elements == [.star] }

    private static func resolve(_ name: String, caseSensitive: Bool, variables: [String: [String]]) -> Variable {
        // Declared variables shadow the built-ins of the same name.
        if let values = variables[name] {
            let alternatives = values.map { Pattern($0, caseSensitive: caseSensitive, variables: nil).elements }
            return .alternatives(Array(Set(alternatives)).sorted { $0.count < $1.count })
        }
        let anyCase = !caseSensitive
        switch name {
        case "alpha": return .characterClass(.alpha, anyCase: anyCase)
        case "upper": return .characterClass(.upper, anyCase: anyCase)
        case "lower": return .characterClass(.lower, anyCase: anyCase)
        case "alnum": return .characterClass(.alnum, anyCase: anyCase)
        case "digit": return .characterClass(.digit, anyCase: anyCase)
        case "xdigit": return .characterClass(.xdigit, anyCase: anyCase)
        case "region": return literalAlternatives(BuiltInVariables.regions, caseSensitive: caseSensitive)
        case "lang": return literalAlternatives(BuiltInVariables.languages, caseSensitive: caseSensitive)
        default: return .never
        }
    }

    private static func literalAlternatives(_ values: [String], caseSensitive: Bool) -> Variable {
        .alternatives(values.map { [.literal(Array((caseSensitive ? $0 : $0.lowercased()).utf8))] })
    }
}

extension Pattern.CharacterClass {
    /// Whether `byte` (one ASCII character) belongs to the class.
    func contains(_ byte: UInt8, anyCase: Bool) -> Bool {
        let isUpper = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        let isLower = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        switch self {
        case .alpha: return isUpper || isLower
        case .upper: return isUpper || (anyCase && isLower)
        case .lower: return isLower || (anyCase && isUpper)
        case .alnum: return isUpper || isLower || isDigit
        case .digit: return isDigit
        case .xdigit: return hexValue(byte) != nil
        }
    }
}
