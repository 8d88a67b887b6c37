/// One pattern slot of a rule (path, fragment or a query item's value): a template with captures when
/// the text contains `{`, otherwise a raw AASA pattern used verbatim (`*`, `?`, `$(var)` allowed).
public enum RulePattern: Sendable, Hashable {
    case template(RouteTemplate)
    case raw(String)

    /// - Throws: `LinkKitError` (`invalidTemplate`) for a malformed template.
    public init(_ text: String) throws(LinkKitError) {
        // Bytes decide for ASCII text (and without a brace byte there is no brace character): the grapheme walk
        // is left for the rest.
        var hasBraceByte = false
        var isASCII = true
        for byte in text.utf8 {
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "}") { hasBraceByte = true }
            if byte >= 0x80 { isASCII = false }
        }
        let hasBrace = hasBraceByte && (isASCII || text.contains("{") || text.contains("}"))
        self = hasBrace ? .template(try RouteTemplate(text)) : .raw(text)
    }

    /// The text as written.
    public var text: String {
        switch self {
        case .template(let template): template.description
        case .raw(let pattern): pattern
        }
    }

    /// What the AASA file says.
    public var aasaPattern: String {
        switch self {
        case .template(let template): template.aasaPattern
        case .raw(let pattern): pattern
        }
    }

    public var captureNames: [String] {
        if case .template(let template) = self { return template.captureNames }
        return []
    }

    /// Adds the captures of `text` to `found` (names already there keep their values); false when `text`
    /// does not fit the template. A raw pattern has no captures (the AASA matcher has already decided it matches).
    func captures(in text: String, isPath: Bool, caseSensitive: Bool, percentEncoded: Bool, into found: inout [String: String]) -> Bool {
        switch self {
        case .template(let template):
            template.captures(in: text, isPath: isPath, caseSensitive: caseSensitive, percentEncoded: percentEncoded, into: &found)
        case .raw:
            true
        }
    }
}

/// A rule's query constraint: a raw pattern for the whole query, or patterns per query item.
public enum RuleQuery: Sendable, Hashable {
    case string(String)
    case items([RuleQueryItem])
}

/// One query item a rule constrains: `ref` must match `{ref}` (a capture) or `camp_*` (a pattern).
public struct RuleQueryItem: Sendable, Hashable {
    public let name: String
    public let pattern: RulePattern

    public init(name: String, pattern: RulePattern) {
        self.name = name
        self.pattern = pattern
    }
}
