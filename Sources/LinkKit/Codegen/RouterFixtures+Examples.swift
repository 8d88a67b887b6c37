/// Example URLs of a domain's rules, as the association-version diff reads them (docs/HEALTH.md, "Versions and
/// diffs"): the URLs the router fixtures print, without their case and encoding variants.
extension RouterFixtures {
    /// For each rule of `domain`, in order, the paths (with query and fragment) its templates print: one with values
    /// each capture's parameter accepts (of the first of the rule's apps declaring its destination type), then one
    /// per value a parameter refuses; a raw pattern's wildcards filled in. The same every time for the same rules.
    public static func examplePaths(_ domain: CompiledDomain) -> [String] {
        examplePathsByRule(domain).map(\.path)
    }

    /// `examplePaths` with the position of the rule that printed each (a path two rules print is its first's).
    public static func examplePathsByRule(_ domain: CompiledDomain) -> [(position: Int, path: String)] {
        let variables = RuleMatcher.variables(domain.settings.substitutionVariables)
        let apps = Dictionary(domain.apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var paths: [(position: Int, path: String)] = []
        var seen: Set<String> = []
        for (position, rule) in domain.rules.enumerated() {
            let spec = rule.destination.flatMap { binding in rule.apps.lazy.compactMap { apps[$0]?.destinations[binding.type] }.first }
            for values in samples(rule, spec) {
                guard let path = print(rule, values, variables), seen.insert(path).inserted else { continue }
                paths.append((position, path))
            }
        }
        return paths
    }
}
