extension AASARule {
    /// RFC 6901 pointer to the rule in an array-form file, e.g. `/applinks/details/0/components/3`.
    public var pointer: String {
        "/applinks/details/\(detailIndex)/\(legacyPath == nil ? "components" : "paths")/\(componentIndex)"
    }

    /// A one-line summary of what the rule matches, e.g. `/ "/buy/*"  ? {"id":"????"}  # *  exclude`.
    public var summary: String {
        if let legacyPath { return "path \(JSONValue.string(legacyPath).serialized)" }
        if effective.isMalformed { return "(not an object: never matches)" }
        var parts = ["/ " + JSONValue.string(effective.path ?? "*").serialized]
        switch effective.query {
        case .string(let pattern)?: parts.append("? " + JSONValue.string(pattern).serialized)
        case .items?: parts.append("? " + (AASAComponent(query: effective.query).json["?"]?.serialized ?? ""))
        case nil: parts.append("? \"*\"")
        }
        parts.append("# " + JSONValue.string(effective.fragment ?? "*").serialized)
        if effective.exclude == true { parts.append("exclude") }
        if effective.caseSensitive == false { parts.append("caseSensitive:false") }
        if effective.percentEncoded == false { parts.append("percentEncoded:false") }
        return parts.joined(separator: "  ")
    }
}
