/// Which captures of a rule a link may leave out, from what its apps declare (docs/LINKS.md, "Optional
/// parameters"): the destination type says a parameter is optional, so the rule's pattern must also match a URL
/// without the capture's text, resolve must accept its absence and build must print the link without it.
extension LinkRule {
    /// The `{name}` captures every app of the rule that declares its destination type binds only to optional
    /// parameters (at least one app binding it). A capture one app needs stays required for all: the AASA pattern
    /// is one for every app of the rule.
    public func optionalCaptures(apps: [String: DomainApp]) -> Set<String> {
        guard let binding = destination, self.exclude != true else { return [] }
        // Most rules capture no parameter an app declares optional: said without building sets.
        guard capturesAny(of: Self.optionalParameters(of: binding.type, apps: self.apps, in: apps)) else { return [] }
        let names = captureNames
        guard !names.isEmpty else { return [] }
        var optional: Set<String> = []
        var required: Set<String> = []
        for id in self.apps {
            guard let type = apps[id]?.destinations[binding.type] else { continue }
            for spec in type.parameters {
                guard case .capture(let name) = binding.params[spec.name] ?? .capture(spec.name), names.contains(name) else { continue }
                if spec.optional { optional.insert(name) } else { required.insert(name) }
            }
        }
        return optional.subtracting(required)
    }

    /// The parameters some app among `ids` declares optional in the destination type `type` (the only ones a capture
    /// can become optional through); the same for every rule naming these apps and this type.
    static func optionalParameters(of type: String, apps ids: [String], in apps: [String: DomainApp]) -> [String] {
        var names: [String] = []
        for id in ids {
            guard let declared = apps[id]?.destinations[type] else { continue }
            for spec in declared.parameters where spec.optional && !names.contains(spec.name) { names.append(spec.name) }
        }
        return names
    }

    /// Whether the rule's destination binds one of `parameters` to a capture of its templates: false when it has no
    /// optional capture (`optionalCaptures(apps:)` is empty).
    func capturesAny(of parameters: [String]) -> Bool {
        guard let binding = destination, self.exclude != true else { return false }
        return parameters.contains { parameter in
            guard case .capture(let name) = binding.params[parameter] ?? .capture(parameter) else { return false }
            return captures(name)
        }
    }

    /// Whether a template of the rule (path, fragment, query item) captures `name`.
    private func captures(_ name: String) -> Bool {
        func has(_ pattern: RulePattern?) -> Bool {
            guard case .template(let template)? = pattern else { return false }
            return template.elements.contains { element in
                if case .capture(let capture, _) = element { return capture == name }
                return false
            }
        }
        if has(path) || has(fragment) { return true }
        if case .items(let items)? = query { return items.contains { has($0.pattern) } }
        return false
    }

    /// This rule with its optional captures (`optionalCaptures(apps:)`) marked in its templates, which then write
    /// `*` for them into the AASA file, extract and print them possibly empty. The rule itself when none is.
    public func withOptionalCaptures(apps: [String: DomainApp]) -> LinkRule {
        let optional = optionalCaptures(apps: apps)
        guard !optional.isEmpty else { return self }
        let query: RuleQuery? = self.query.map { query in
            guard case .items(let items) = query else { return query }
            return .items(items.map { RuleQueryItem(name: $0.name, pattern: $0.pattern.withOptionalCaptures(optional)) })
        }
        return LinkRule(
            id: id, apps: self.apps, path: path?.withOptionalCaptures(optional), query: query,
            fragment: fragment?.withOptionalCaptures(optional), exclude: self.exclude, caseSensitive: self.caseSensitive,
            percentEncoded: self.percentEncoded, comment: self.comment, destination: destination
        )
    }
}

extension RulePattern {
    /// The pattern with `names` optional where it captures them (`RouteTemplate.withOptionalCaptures`).
    func withOptionalCaptures(_ names: Set<String>) -> RulePattern {
        guard case .template(let template) = self else { return self }
        return .template(template.withOptionalCaptures(names))
    }
}
