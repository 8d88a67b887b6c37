/// One `components` rule, or a Defaults object (which "can contain any of its properties", docs/aasa-semantics.md §2).
///
/// Every key is optional; an absent key takes its value from the app defaults, then the domain defaults, then the
/// built-in default (`/`, `?`, `#` = `*`, `exclude` = false, `caseSensitive` = true, `percentEncoded` = true).
public struct AASAComponent: ComponentOptionsCarrier, Sendable, Hashable {
    /// `/`: the path pattern.
    public var path: String?
    /// `?`: the query pattern (a string for the whole query, or name → value patterns).
    public var query: AASAQuery?
    /// `#`: the fragment pattern.
    public var fragment: String?
    /// `exclude`, `caseSensitive`, `percentEncoded` and `comment`, read as members of the component.
    public var options: ComponentOptions
    /// True when the source entry was not a JSON object: it never matches, keeps its index, and encodes as `null`.
    public var isMalformed: Bool

    /// Creates a component.
    /// - Parameters:
    ///   - path: `/` pattern.
    ///   - query: `?` pattern.
    ///   - fragment: `#` pattern.
    ///   - exclude: whether a match blocks the link.
    ///   - caseSensitive: case sensitivity.
    ///   - percentEncoded: whether to compare the encoded URL.
    ///   - comment: a comment.
    ///   - isMalformed: whether the source entry was not an object.
    public init(
        path: String? = nil, query: AASAQuery? = nil, fragment: String? = nil, exclude: Bool? = nil,
        caseSensitive: Bool? = nil, percentEncoded: Bool? = nil, comment: String? = nil, isMalformed: Bool = false
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        options = ComponentOptions(exclude: exclude, caseSensitive: caseSensitive, percentEncoded: percentEncoded, comment: comment)
        self.isMalformed = isMalformed
    }

    /// This component with every absent key taken from `defaults`.
    /// - Parameter defaults: the less specific level.
    public func inheriting(from defaults: AASAComponent?) -> AASAComponent {
        guard let defaults else { return self }
        var merged = self
        merged.path = path ?? defaults.path
        merged.query = query ?? defaults.query
        merged.fragment = fragment ?? defaults.fragment
        merged.options.exclude = self.exclude ?? defaults.exclude
        merged.options.caseSensitive = self.caseSensitive ?? defaults.caseSensitive
        merged.options.percentEncoded = self.percentEncoded ?? defaults.percentEncoded
        return merged
    }
}

/// The `?` key of a component.
public enum AASAQuery: Sendable, Hashable {
    /// A pattern for the whole raw query string after `?`.
    case string(String)
    /// Query-item name → value pattern; every listed name must match, others are ignored.
    case items([QueryItemPattern])
}

/// One query-item requirement of a `?` dictionary.
public struct QueryItemPattern: Sendable, Hashable {
    /// The query-item name (compared literally).
    public var name: String
    /// The value pattern; an absent item reads as the empty string.
    public var pattern: String

    /// Creates a requirement.
    /// - Parameters:
    ///   - name: the item name.
    ///   - pattern: the value pattern.
    public init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }
}
