/// One entry of `dynamic_app_link_components`, the rules Android 15+ reads from `assetlinks.json`
/// (docs/ANDROID.md): path `/`, fragment `#` and query items `?` patterns, and `exclude`. Android evaluates an
/// app's entries in order and the first that matches decides; when none does, the URL does not open the app.
///
/// Patterns use `*` (any run, up to the first occurrence of the character after it: no second try), `?` (one
/// character) and `?*` (one or more); they are matched against the decoded URL, case-sensitively.
public struct AndroidDynamicRule: Sendable, Hashable {
    /// `/`: the path pattern, nil for any path.
    public let path: String?
    /// `?`: query item name → value pattern; every one must be found in the URL.
    public let query: [(name: String, pattern: String)]
    /// `#`: the fragment pattern, nil for any fragment.
    public let fragment: String?
    public let exclude: Bool
    /// The position of the rule it was written from.
    public let position: Int

    public init(path: String?, query: [(name: String, pattern: String)] = [], fragment: String? = nil, exclude: Bool = false, position: Int)
    {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.position = position
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.path == rhs.path && lhs.fragment == rhs.fragment && lhs.exclude == rhs.exclude && lhs.position == rhs.position
            && lhs.query.elementsEqual(rhs.query) { $0.name == $1.name && $0.pattern == $1.pattern }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(fragment)
        hasher.combine(exclude)
        hasher.combine(position)
        for item in query {
            hasher.combine(item.name)
            hasher.combine(item.pattern)
        }
    }

    /// The entry as written in the file: `/`, `?`, `#`, `exclude` (only when true).
    public var json: JSONValue {
        var members: [JSONMember] = []
        if let path { members.append(JSONMember(key: "/", value: .string(path))) }
        if !query.isEmpty {
            members.append(JSONMember(key: "?", value: .object(query.map { JSONMember(key: $0.name, value: .string($0.pattern)) })))
        }
        if let fragment { members.append(JSONMember(key: "#", value: .string(fragment))) }
        if exclude { members.append(JSONMember(key: "exclude", value: .bool(true))) }
        return .object(members)
    }

    /// Whether the entry matches a URL's decoded path, decoded query items and decoded fragment.
    public func matches(path decodedPath: String, items: [(name: String, value: String)], fragment decodedFragment: String) -> Bool {
        if let path, !Self.matches(path, decodedPath) { return false }
        if let fragment, !Self.matches(fragment, decodedFragment) { return false }
        for item in query {
            // INFERRED (docs/ANDROID.md): an item must be present, and one of its instances must match.
            guard items.contains(where: { $0.name == item.name && Self.matches(item.pattern, $0.value) }) else { return false }
        }
        return true
    }

    /// A dynamic pattern matched as Android's simple glob reads `.` and `.*`: `?` is any one character, `*` a run
    /// up to the first occurrence of the next character.
    static func matches(_ pattern: String, _ text: String) -> Bool {
        AndroidPatternMatcher.simpleGlob(glob(pattern), Array(text.utf16))
    }

    /// A dynamic pattern as the simple glob it is read as, in UTF-16 code units.
    static func glob(_ pattern: String) -> [UInt16] {
        var glob: [UInt16] = []
        for unit in pattern.utf16 {
            switch unit {
            case UInt16(UInt8(ascii: "?")): glob.append(UInt16(UInt8(ascii: ".")))
            case UInt16(UInt8(ascii: "*")): glob += [UInt16(UInt8(ascii: ".")), UInt16(UInt8(ascii: "*"))]
            case UInt16(UInt8(ascii: ".")), UInt16(UInt8(ascii: "\\")): glob += [UInt16(UInt8(ascii: "\\")), unit]
            default: glob.append(unit)
            }
        }
        return glob
    }
}

extension AndroidDynamicRule {
    /// The entries a rule writes (one per expanded substitution value), and where they read differently from the
    /// rule's Apple patterns.
    /// - Parameters:
    ///   - effective: the rule's component with every default applied.
    ///   - position: the rule's position.
    ///   - variables: declared substitution variables.
    static func written(
        effective: AASAComponent, position: Int, variables: [String: [String]]
    ) -> (rules: [AndroidDynamicRule], notes: [String]) {
        var notes: [String] = []
        let percentEncoded = effective.percentEncoded ?? true
        if effective.caseSensitive == false {
            notes.append("caseSensitive is false: Android's dynamic rules match case-sensitively")
        }
        func texts(_ text: String?) -> [String?] {
            guard let text else { return [nil] }
            let (globs, widened) = AndroidGlob.alternatives(text, percentEncoded: percentEncoded, variables: variables)
            if widened { notes.append("a substitution variable has too many values to expand: Android reads it as '*' (wider)") }
            if globs.contains(where: \.hasClass) { notes.append("a built-in character class reads as '?' (any character) on Android") }
            if globs.contains(where: \.hasInnerStar) {
                notes.append("'*' before more pattern: Android's '*' stops at the first occurrence of the character after it")
            }
            return globs.map { $0.dynamicText }
        }
        var paths: [String?] = [nil]
        if let path = effective.path, path != "*" {
            let (pattern, parent) = CompiledRule.normalizedPath(path)
            paths = texts(pattern.isEmpty ? "/" : pattern) + (parent.map { texts($0.isEmpty ? "/" : $0) } ?? [])
        }
        var query: [(name: String, pattern: String)] = []
        switch effective.query {
        case .string(let text)? where text != "*":
            notes.append("a pattern for the whole query cannot be written for Android (only query items): Android ignores it (wider)")
        case .items(let items)?:
            for item in items where item.pattern != "*" {
                if item.pattern.isEmpty || item.pattern.allSatisfy({ $0 == "*" }) {
                    notes.append("query item '\(item.name)': iOS reads an absent item as empty, Android needs the item present")
                }
                let values = texts(item.pattern)
                if values.count > 1 {
                    notes.append("query item '\(item.name)': only its first substitution value is written for Android (narrower)")
                }
                query.append((item.name, values.first.flatMap { $0 } ?? item.pattern))
            }
        default:
            break
        }
        let fragments = effective.fragment.flatMap { $0 == "*" ? nil : $0 }.map { texts($0) } ?? [nil]
        var rules: [AndroidDynamicRule] = []
        for path in paths {
            for fragment in fragments {
                let rule = AndroidDynamicRule(
                    path: path, query: query, fragment: fragment, exclude: effective.exclude ?? false, position: position)
                if !rules.contains(rule) { rules.append(rule) }
            }
        }
        var seen: Set<String> = []
        return (rules, notes.filter { seen.insert($0).inserted })
    }
}

extension AndroidGlob {
    /// The alternative as a dynamic-rule pattern (`?`, `*`, literals as they are; a class as `?`).
    var dynamicText: String {
        tokens.map { token in
            switch token {
            case .literal(let text): text
            case .one, .characterClass: "?"
            case .star: "*"
            }
        }.joined()
    }
}
