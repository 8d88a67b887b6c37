import ByteText

/// An AASA pattern read for Android (docs/ANDROID.md): literals (percent-decoded when the rule compares encoded
/// URLs, since Android compares decoded ones), `?`, `*`, and built-in one-character classes; declared and
/// `$(lang)`/`$(region)` variables are expanded into alternatives, at most `maximumAlternatives` of them.
struct AndroidGlob: Sendable, Hashable {
    enum Token: Sendable, Hashable {
        case literal(String)
        case one
        case star
        case characterClass(Pattern.CharacterClass)
    }

    /// Alternatives beyond this many are not expanded: the variable then reads as `*` (wider).
    static let maximumAlternatives = 16

    let tokens: [Token]

    /// Every alternative `text` stands for, and whether a variable had to be widened to `*`.
    static func alternatives(_ text: String, percentEncoded: Bool, variables: [String: [String]]) -> (globs: [AndroidGlob], widened: Bool) {
        var results: [[Token]] = [[]]
        var widened = false
        func append(_ token: Token) {
            for index in results.indices {
                if token == .star, results[index].last == .star { continue }
                // `*?` is `?*`: the star goes after, so a star is always followed by a literal, a class or the end.
                if token == .one, results[index].last == .star {
                    results[index].insert(.one, at: results[index].count - 1)
                    continue
                }
                if case .literal(let text) = token, case .literal(let previous)? = results[index].last {
                    results[index][results[index].count - 1] = .literal(previous + text)
                    continue
                }
                results[index].append(token)
            }
        }
        func appendLiteral(_ text: String) {
            guard !text.isEmpty else { return }
            append(.literal(percentEncoded ? decoded(text) : text))
        }
        var rest = Substring(text)
        var literal = ""
        while let character = rest.first {
            if character == "*" || character == "?" || rest.hasPrefix("$(") {
                appendLiteral(literal)
                literal = ""
            }
            if character == "*" {
                append(.star)
                rest = rest.dropFirst()
            } else if character == "?" {
                append(.one)
                rest = rest.dropFirst()
            } else if rest.hasPrefix("$(") {
                guard let close = rest.firstIndex(of: ")") else { return ([], false) }
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                rest = rest[rest.index(after: close)...]
                if let characterClass = builtInClass(name), variables[name] == nil {
                    append(.characterClass(characterClass))
                    continue
                }
                guard let values = variables[name] ?? builtInValues(name) else { return ([], false) } // never matches
                if values.count * results.count > maximumAlternatives {
                    widened = true
                    append(.star)
                    continue
                }
                var expanded: [[Token]] = []
                for result in results {
                    for value in values {
                        let inner = alternatives(value, percentEncoded: percentEncoded, variables: [:]).globs.first?.tokens ?? []
                        expanded.append(AndroidGlob.joined(result, inner))
                    }
                }
                results = expanded
            } else {
                literal.append(character)
                rest = rest.dropFirst()
            }
        }
        appendLiteral(literal)
        var seen: Set<[Token]> = []
        return (results.filter { seen.insert($0).inserted }.map(AndroidGlob.init(tokens:)), widened)
    }

    /// `left` then `right`, with the same merging `append` does.
    private static func joined(_ left: [Token], _ right: [Token]) -> [Token] {
        var tokens = left
        for token in right {
            if token == .star, tokens.last == .star { continue }
            if token == .one, tokens.last == .star { tokens.insert(.one, at: tokens.count - 1); continue }
            if case .literal(let text) = token, case .literal(let previous)? = tokens.last {
                tokens[tokens.count - 1] = .literal(previous + text)
                continue
            }
            tokens.append(token)
        }
        return tokens
    }

    private static func builtInClass(_ name: String) -> Pattern.CharacterClass? {
        switch name {
        case "alpha": .alpha
        case "upper": .upper
        case "lower": .lower
        case "alnum": .alnum
        case "digit": .digit
        case "xdigit": .xdigit
        default: nil
        }
    }

    private static func builtInValues(_ name: String) -> [String]? {
        switch name {
        case "region": BuiltInVariables.regions
        case "lang": BuiltInVariables.languages
        default: nil
        }
    }

    static func decoded(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return String(decoding: MatchSubject.percentDecoded(bytes), as: UTF8.self)
    }

    /// Whether a star stands anywhere but at the end (Android's wildcards never retry a longer run).
    var hasInnerStar: Bool { tokens.dropLast().contains(.star) }
    var hasClass: Bool {
        tokens.contains {
            if case .characterClass = $0 { return true }; return false
        }
    }

    /// Whether any literal has a letter (which `caseSensitive: false` must fold).
    var hasLetters: Bool {
        tokens.contains { token in
            guard case .literal(let text) = token else { return false }
            return text.unicodeScalars.contains { $0.properties.isAlphabetic }
        }
    }

    var hasNonASCIILetters: Bool {
        tokens.contains { token in
            guard case .literal(let text) = token else { return false }
            return text.unicodeScalars.contains { !$0.isASCII && $0.properties.isAlphabetic }
        }
    }
}

extension AndroidGlob.Token {
    var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }
}
