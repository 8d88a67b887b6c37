/// An AASA file compiled once for matching URLs the way iOS does (docs/aasa-semantics.md §3–§7). A `Sendable` value:
/// build it when the file changes, share it between threads, call it per request.
///
/// Rules are indexed by literal path prefix, so a file with 10,000 rules with distinct prefixes decides about as
/// fast as one with 10, while candidates are still tried in file order (first match wins).
public struct AASAMatcher: Sendable {
    /// Every app named in `applinks.details`, in order of first appearance.
    public var appIDs: [String] { core.appIDs }

    /// The compiled rules, entries and app groups (entry `i` is compiled rule `i` and `rules[i]`).
    let core: RuleMatcher
    /// Every rule in file order (details order, then component or path order).
    let rules: [AASARule]

    /// Apps listed in exactly the same details entries, each group with its rules in file order.
    var groups: [RuleMatcher.Group] { core.groups }

    /// Compiles `file`.
    /// - Parameter file: the decoded AASA file.
    public init(_ file: AASAFile) {
        let applinks = file.applinks ?? AppLinks()
        let variables = RuleMatcher.variables(applinks.substitutionVariables)
        var rules: [AASARule] = []
        var details: [(appIDs: [String], rules: [Int32])] = []
        for (detailIndex, detail) in applinks.details.enumerated() {
            var numbers: [Int32] = []
            if let components = detail.components {
                // iOS 13+ ignores `paths` whenever `components` is present, even empty (W19, case lg-11).
                for (componentIndex, component) in components.enumerated() {
                    let effective = RuleMatcher.effective(component, detailDefaults: detail.defaults, fileDefaults: applinks.defaults)
                    numbers.append(Int32(rules.count))
                    rules.append(AASARule(detailIndex: detailIndex, componentIndex: componentIndex, legacyPath: nil, effective: effective))
                }
            } else if let paths = detail.paths {
                let detailDefaults = (detail.defaults ?? AASAComponent()).inheriting(from: applinks.defaults)
                for (pathIndex, path) in paths.enumerated() {
                    let isExclusion = path.hasPrefix("NOT ")
                    // Legacy paths match the path only (A11); the flags still cascade from the defaults.
                    let effective = AASAComponent(
                        path: isExclusion ? String(path.dropFirst(4)) : path, exclude: isExclusion,
                        caseSensitive: detailDefaults.caseSensitive, percentEncoded: detailDefaults.percentEncoded
                    )
                    numbers.append(Int32(rules.count))
                    rules.append(AASARule(detailIndex: detailIndex, componentIndex: pathIndex, legacyPath: path, effective: effective))
                }
            }
            details.append((detail.appIDs, numbers))
        }
        self.rules = rules
        core = RuleMatcher(rules: rules.map { CompiledRule(effective: $0.effective, variables: variables) }, details: details)
    }
}
