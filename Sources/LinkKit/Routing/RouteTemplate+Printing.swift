/// Printing: the inverse of extraction (`RouteTemplate+Extraction`). A template and the values of its captures
/// give the raw (percent-encoded) text whose extraction gives those values back, under the same
/// `percentEncoded` rule the matcher applies (docs/LINKS.md).
extension RouteTemplate {
    /// Builds the text for `captures` (the reverse of `captures(in:)`): values are percent-encoded so that
    /// `{name}` values stay within one segment. Returns nil when a capture has no value.
    public func render(_ captures: [String: String]) -> String? {
        printed(captures, isPath: true, percentEncoded: true)
    }

    /// The raw text for `captures`, or nil when the template cannot print them: a required `{name}` capture
    /// without a value or with the empty one (it takes at least one character), or, when the text is compared
    /// decoded (`percentEncoded` false), a `{name}` value holding `/` (decoded, it would end the segment). A missing
    /// `{rest*}` or optional `{name}` prints as empty.
    /// - Parameters:
    ///   - isPath: a path keeps the `/` of `{rest*}` values as they are; a query value or fragment encodes it.
    ///   - percentEncoded: false when the matcher compares decoded text: literals are then written encoded.
    public func printed(_ captures: [String: String], isPath: Bool, percentEncoded: Bool) -> String? {
        var out = ""
        for element in elements {
            switch element {
            case .literal(let text):
                out += percentEncoded ? text : PercentEncoding.encode(text, keepingSlashes: isPath)
            case .capture(let name, let rest):
                let mayBeEmpty = rest || optionalCaptures.contains(name)
                let value = captures[name] ?? (mayBeEmpty ? "" : nil)
                guard let value, mayBeEmpty || !value.isEmpty else { return nil }
                if !rest, !percentEncoded, value.utf8.contains(UInt8(ascii: "/")) { return nil }
                out += PercentEncoding.encode(value, keepingSlashes: rest && isPath)
            }
        }
        return out
    }
}

extension RulePattern {
    /// The raw text of this pattern for `captures` (`RouteTemplate.printed`); a raw AASA pattern prints as itself
    /// when it is literal text (no `*`, `?` or `$(`), and not at all otherwise: it names no one URL.
    public func printed(_ captures: [String: String], isPath: Bool, percentEncoded: Bool) -> String? {
        switch self {
        case .template(let template):
            return template.printed(captures, isPath: isPath, percentEncoded: percentEncoded)
        case .raw(let pattern):
            guard !pattern.utf8.contains(where: { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") }), !pattern.contains("$(") else {
                return nil
            }
            return percentEncoded ? pattern : PercentEncoding.encode(pattern, keepingSlashes: isPath)
        }
    }

    /// Whether this is a raw pattern with wildcards or variables, which no value can print.
    public var isWildcard: Bool {
        guard case .raw = self else { return false }
        return printed([:], isPath: true, percentEncoded: true) == nil
    }
}
