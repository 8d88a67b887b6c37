/// A rule's path pattern as the `<data>` path attributes of an intent filter (docs/ANDROID.md): the elements
/// match (by Android's `PatternMatcher`) the decoded paths whose Apple reading the pattern matches, and `notes`
/// say where they cannot, and which way they differ.
public struct AndroidPathTranslation: Sendable, Hashable {
    /// The path attributes; a path matches when any of them does.
    public let elements: [AndroidPatternMatcher]
    /// Why the elements differ from the Apple pattern, one sentence each; empty when they match the same paths.
    public let notes: [String]

    /// Translates the path of a rule's effective settings.
    /// - Parameters:
    ///   - effective: the rule's component with every default applied.
    ///   - variables: declared substitution variables.
    public init(effective: AASAComponent, variables: [String: [String]]) {
        let caseSensitive = effective.caseSensitive ?? true
        let (pattern, parent) = CompiledRule.normalizedPath(effective.path ?? "*")
        var elements: [AndroidPatternMatcher] = []
        var notes: [String] = []
        for text in [pattern] + (parent.map { [$0] } ?? []) {
            // `/x/*` gives `path="/x"` and `pathPrefix="/x/"`, which already hold its parent path.
            if text == parent, elements.contains(where: { $0.kind == .prefix }) { continue }
            let (globs, widened) = AndroidGlob.alternatives(text, percentEncoded: effective.percentEncoded ?? true, variables: variables)
            if widened {
                notes.append(
                    "a substitution variable has more than \(AndroidGlob.maximumAlternatives) values here, so Android reads it as '*' (wider)"
                )
            }
            for glob in globs {
                for element in Self.elements(glob, caseSensitive: caseSensitive, notes: &notes) where !elements.contains(element) {
                    elements.append(element)
                }
            }
        }
        self.elements = elements
        var seen: Set<String> = []
        self.notes = notes.filter { seen.insert($0).inserted }
    }

    /// Whether a decoded path matches one of the elements.
    public func matches(_ path: String) -> Bool { matches(utf16: Array(path.utf16)) }

    /// Whether a decoded path, as UTF-16 code units, matches one of the elements.
    public func matches(utf16 path: [UInt16]) -> Bool { elements.contains { $0.matches(utf16: path) } }

    /// The elements of one alternative (no variables left but built-in classes).
    private static func elements(_ glob: AndroidGlob, caseSensitive: Bool, notes: inout [String]) -> [AndroidPatternMatcher] {
        let tokens = glob.tokens
        let foldsCase = !caseSensitive && glob.hasLetters
        if foldsCase && glob.hasNonASCIILetters {
            notes.append("Android's patterns cannot fold the case of non-ASCII letters: only ASCII letters match in either case")
        }
        if !foldsCase && !glob.hasClass {
            switch tokens.count {
            case 0:
                return [make("/", .literal)]
            case 1:
                // Android's glob cannot end in "zero or more slashes" (a starred character at the very end needs
                // one when the input is used up), so the path and the path with one trailing slash.
                if case .literal(let text) = tokens[0] { return [make(text, .literal), make(text + "/", .literal)] }
            case 2:
                if case .literal(let text) = tokens[0], tokens[1] == .star {
                    var parent = text
                    while parent.hasSuffix("/") { parent.removeLast() }
                    if text.hasSuffix("/"), !parent.isEmpty { return [make(parent, .literal), make(text, .prefix)] }
                    return [make(text, .prefix)]
                }
            default:
                break
            }
        }
        if glob.hasInnerStar {
            notes.append(
                "'*' inside a path: Android takes the shortest run up to the next character and never retries a longer one, so a run that holds that character (iOS matches it) does not match"
            )
        }
        if foldsCase || glob.hasClass {
            return [make(advanced(tokens, foldCase: foldsCase), .advancedGlob)]
        }
        let glob = simpleGlob(tokens)
        if tokens.last == .star { return [make(glob, .simpleGlob)] }
        return [make(glob, .simpleGlob), make(glob + "/", .simpleGlob)]
    }

    private static func make(_ pattern: String, _ kind: AndroidPatternMatcher.Kind) -> AndroidPatternMatcher {
        // The patterns written here are well-formed by construction.
        (try? AndroidPatternMatcher(pattern, kind: kind)) ?? (try! AndroidPatternMatcher("/", kind: .literal))
    }

    private static func simpleGlobLiteral(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "." || character == "*" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// `?` is `.`, `*` is `.*`, literals escaped.
    private static func simpleGlob(_ tokens: [AndroidGlob.Token]) -> String {
        var out = ""
        for token in tokens {
            switch token {
            case .literal(let text): out += simpleGlobLiteral(text)
            case .one: out += "."
            case .star: out += ".*"
            case .characterClass: out += "."
            }
        }
        return out
    }

    /// The advanced form: letters as `[xX]` when folding case, classes as sets, a final `*` as `.*` and an inner
    /// one as "anything but the next character" (the same shortest run the simple glob takes); a pattern that does
    /// not end in `*` also takes trailing slashes (`/*`: the advanced `*` may take none at the end), as the Apple
    /// reading drops them.
    private static func advanced(_ tokens: [AndroidGlob.Token], foldCase: Bool) -> String {
        var out = ""
        for (index, token) in tokens.enumerated() {
            switch token {
            case .literal(let text):
                for character in text { out += advancedCharacter(character, foldCase: foldCase) }
            case .one:
                out += "."
            case .characterClass(let characterClass):
                out += set(characterClass, foldCase: foldCase)
            case .star:
                guard index + 1 < tokens.count else { out += ".*"; continue }
                switch tokens[index + 1] {
                case .literal(let text):
                    out += "[^" + setMembers(text.first!, foldCase: foldCase) + "]*"
                case .characterClass(let characterClass):
                    out += "[^" + setBody(characterClass, foldCase: foldCase) + "]*"
                default:
                    out += ".*"
                }
            }
        }
        if tokens.last != .star { out += "/*" }
        return out
    }

    private static let advancedSpecials: Set<Character> = ["\\", ".", "[", "]", "{", "}", "*", "+"]

    private static func advancedCharacter(_ character: Character, foldCase: Bool) -> String {
        if foldCase, character.isASCII, character.isLetter { return "[" + setMembers(character, foldCase: true) + "]" }
        return advancedSpecials.contains(character) ? "\\" + String(character) : String(character)
    }

    /// A character as members of a set (both cases when folding).
    private static func setMembers(_ character: Character, foldCase: Bool) -> String {
        let escaped = "\\[]^-".contains(character) ? "\\" + String(character) : String(character)
        guard foldCase, character.isASCII, character.isLetter else { return escaped }
        return character.lowercased() + character.uppercased()
    }

    private static func set(_ characterClass: Pattern.CharacterClass, foldCase: Bool) -> String {
        "[" + setBody(characterClass, foldCase: foldCase) + "]"
    }

    private static func setBody(_ characterClass: Pattern.CharacterClass, foldCase: Bool) -> String {
        switch characterClass {
        case .alpha: "a-zA-Z"
        case .upper: foldCase ? "a-zA-Z" : "A-Z"
        case .lower: foldCase ? "a-zA-Z" : "a-z"
        case .alnum: "a-zA-Z0-9"
        case .digit: "0-9"
        case .xdigit: "0-9a-fA-F"
        }
    }
}
