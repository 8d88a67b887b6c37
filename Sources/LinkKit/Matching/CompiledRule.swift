/// A rule compiled for matching: patterns over UTF-8 bytes in the form (`MatchSubject.Form`) it compares against.
/// Where the rule sits in a file is not its concern (`RuleMatcher.Entry`), so one compilation can serve every
/// entry, and every platform's matcher, that lists the same component. Matchers hold their rules packed
/// (`CompiledRuleSet`, which matches them); this form is what they are packed from.
struct CompiledRule: Sendable {
    enum Query: Sendable {
        case any
        case string(Pattern)
        case items([(name: [UInt8], pattern: Pattern)])
    }

    let form: MatchSubject.Form
    let exclude: Bool
    /// nil matches every path.
    let path: Pattern?
    /// For a path pattern ending in `/*`: the parent path it also matches (`/buy/*` matches `/buy`, TN3155).
    let parentPath: Pattern?
    let query: Query
    /// nil matches every fragment.
    let fragment: Pattern?
    /// A malformed component: never matches.
    let never: Bool

    /// Compiles a rule from its effective settings (every default applied, `RuleMatcher.effective`).
    init(effective settings: AASAComponent, variables: [String: [String]]) {
        let caseSensitive = settings.caseSensitive ?? true
        form = MatchSubject.Form(percentEncoded: settings.percentEncoded ?? true, caseSensitive: caseSensitive)
        exclude = settings.exclude ?? false
        never = settings.isMalformed
        let compile = { (text: String) in Pattern(text, caseSensitive: caseSensitive, variables: variables) }
        let (pathText, parentText) = Self.normalizedPath(settings.path ?? "*")
        path = compile(pathText)
        parentPath = parentText.map(compile)
        switch settings.query {
        case .string(let text)?:
            let pattern = compile(text)
            query = pattern.matchesEverything ? .any : .string(pattern)
        case .items(let items)?:
            query = .items(
                items.map { item in
                    let name = caseSensitive ? item.name : item.name.lowercased()
                    return (Array(name.utf8), compile(item.pattern))
                })
        case nil:
            query = .any
        }
        let fragmentPattern = compile(settings.fragment ?? "*")
        fragment = fragmentPattern.matchesEverything ? nil : fragmentPattern
    }

    /// The path pattern normalised as swcutil reads it (docs/aasa-semantics.md §4): leading `/` optional and collapsed,
    /// trailing `/` runs dropped; plus, for a pattern ending in `/*`, the parent pattern without that segment.
    static func normalizedPath(_ text: String) -> (pattern: String, parent: String?) {
        var pattern: String
        let utf8 = text.utf8
        // Usually one leading `/` and no trailing one: the text as it is (ASCII, where bytes are characters).
        if utf8.count > 1, utf8.first == UInt8(ascii: "/"), utf8.dropFirst().first != UInt8(ascii: "/"),
            utf8.last != UInt8(ascii: "/"), utf8.allSatisfy({ $0 < 0x80 })
        {
            pattern = text
        } else {
            pattern = "/" + text.drop { $0 == "/" }
            while pattern.hasSuffix("/") { pattern.removeLast() }
        }
        guard pattern.hasSuffix("/*") else { return (pattern, nil) }
        var parent = String(pattern.dropLast(2))
        while parent.hasSuffix("/") { parent.removeLast() }
        return (pattern, parent)
    }

    /// Index keys in `form`: the literal bytes every path this rule matches starts with, and, when the rule also
    /// matches one literal parent path (`/x/*` matches `/x`), that whole path.
    var indexKeys: (prefix: [UInt8], exact: [UInt8]?) {
        guard let path else { return ([], nil) }
        let primary = path.literalPrefix
        guard let parentPath else { return (primary, nil) }
        let parentElements = parentPath.elements
        if parentElements.isEmpty { return (primary, []) }
        if parentElements.count == 1, case .literal(let parent) = parentElements[0] { return (primary, parent) }
        let parent = parentPath.literalPrefix
        return (Array(zip(primary, parent).prefix { $0 == $1 }.map(\.0)), nil)
    }
}
