extension AASALinter {
    /// Warns about rules that can never decide because earlier rules for the same app(s) already match every URL they
    /// would (`PatternInclusion`): one earlier rule whose path, query and fragment each cover the rule's (`/c/sale`
    /// after `/c/{slug}`), or several whose queries and fragments cover it and whose paths together cover its path.
    /// Earlier rules of another form (`caseSensitive`, `percentEncoded`) are left aside. The check shares one budget
    /// (`reachabilityBudget`); a list that spends it (thousands of rules alike) gets no reachability findings.
    /// (Stored links are checked against a rule change by the service, which holds them: `RuleValidator.shadowedLinks`.)
    mutating func checkReachability(_ applinks: JSONValue) {
        guard let model = AppLinks(lenient: applinks) else { return }
        let matcher = AASAMatcher(AASAFile(applinks: model))
        let variables = RuleMatcher.variables(model.substitutionVariables)
        let compiled = matcher.rules.map { CompiledRule(effective: $0.effective, variables: variables) }
        // For each rule: the rules shadowing it in the first group where it is shadowed; reported only if shadowed in
        // every group that lists it.
        var shadowedBy: [Int32: [Int32]] = [:]
        var reachableSomewhere: Set<Int32> = []
        let budget = PatternInclusion.Budget(units: Self.reachabilityBudget)
        for group in matcher.groups {
            // The earlier rules of the group by the literal bytes every path they match starts with: only those whose
            // key starts the rule's own path prefix can cover it.
            var earlier: [[UInt8]: [Int32]] = [:]
            var keyLengths: Set<Int> = []
            for number in group.ruleNumbers {
                let rule = compiled[Int(number)]
                if rule.never { continue }
                let prefix = rule.path?.literalPrefix ?? []
                let candidates = keyLengths.filter { $0 <= prefix.count }.flatMap { earlier[Array(prefix.prefix($0))] ?? [] }.sorted()
                // Listing the candidates costs as much as there are: a list of thousands of alike rules stops here.
                guard budget.spend(candidates.count + 1) else { return }
                if let covers = Self.covers(of: rule, among: candidates, compiled, budget: budget) {
                    if shadowedBy[number] == nil { shadowedBy[number] = covers }
                } else {
                    reachableSomewhere.insert(number)
                }
                let key = Self.coverKey(rule)
                earlier[key, default: []].append(number)
                keyLengths.insert(key.count)
            }
        }
        for (number, covers) in shadowedBy.sorted(by: { $0.key < $1.key }) where !reachableSomewhere.contains(number) {
            let rule = matcher.rules[Int(number)]
            let message: String
            if covers.count == 1 {
                let earlierRule = matcher.rules[Int(covers[0])]
                let reason =
                    Self.isCatchAll(earlierRule)
                    ? "matches every URL"
                    : Self.key(earlierRule) == Self.key(rule)
                        ? "has the same pattern"
                        : "matches every URL this rule matches"
                message = "this rule can never match: the earlier rule at \(earlierRule.pointer) \(reason), so it decides first"
            } else {
                let pointers = covers.map { matcher.rules[Int($0)].pointer }.joined(separator: ", ")
                message =
                    "this rule can never match: the earlier rules at \(pointers) together match every URL this rule matches, so they decide first"
            }
            add(.warning, "unreachableRule", rule.pointer, message)
        }
    }

    /// The earlier rules (`candidates`, in order) that together match every URL `rule` matches: the first that does
    /// alone, else every one covering its query and fragment when their paths together cover its path; nil when none.
    static func covers(
        of rule: CompiledRule, among candidates: [Int32], _ compiled: [CompiledRule], budget: PatternInclusion.Budget? = nil
    ) -> [Int32]? {
        var eligible: [Int32] = []
        for number in candidates {
            let cover = compiled[Int(number)]
            guard PatternInclusion.queryAndFragment(of: rule, coveredBy: cover, budget: budget) else { continue }
            if PatternInclusion.path(of: rule, coveredBy: [cover], budget: budget) == .included { return [number] }
            eligible.append(number)
        }
        guard eligible.count > 1,
            PatternInclusion.path(of: rule, coveredBy: eligible.map { compiled[Int($0)] }, budget: budget) == .included
        else { return nil }
        // Only those whose path is needed: each dropped in turn while the rest still cover.
        var needed = eligible
        for number in eligible where needed.count > 1 {
            let rest = needed.filter { $0 != number }
            if PatternInclusion.path(of: rule, coveredBy: rest.map { compiled[Int($0)] }, budget: budget) == .included { needed = rest }
        }
        return needed
    }

    /// The inclusion work one lint run may do (`PatternInclusion.Budget`): ample for real rule lists, and a
    /// bound on lists built to be costly to compare.
    static let reachabilityBudget = 400_000

    /// The literal bytes every path the rule matches starts with.
    private static func pathPrefix(_ rule: CompiledRule) -> [UInt8] {
        let path = rule.path?.literalPrefix ?? []
        guard let parent = rule.parentPath?.literalPrefix else { return path }
        return parent.count < path.count ? parent : path
    }

    /// Where an earlier rule is filed: its path prefix (a rule can only cover paths that start with it).
    private static func coverKey(_ rule: CompiledRule) -> [UInt8] { pathPrefix(rule) }

    static func isCatchAll(_ rule: AASARule) -> Bool {
        let settings = rule.effective
        return !settings.isMalformed && CompiledRule.normalizedPath(settings.path ?? "*").pattern == "/*"
            && (settings.query == nil || settings.query == .string("*"))
            && (settings.fragment ?? "*") == "*"
    }

    struct Key: Hashable {
        let path: String
        let query: AASAQuery
        let fragment: String
        let caseSensitive: Bool
        let percentEncoded: Bool
    }

    private static func key(_ rule: AASARule) -> Key {
        let settings = rule.effective
        return Key(
            path: CompiledRule.normalizedPath(settings.path ?? "*").pattern, query: settings.query ?? .string("*"),
            fragment: settings.fragment ?? "*", caseSensitive: settings.caseSensitive ?? true,
            percentEncoded: settings.percentEncoded ?? true
        )
    }
}
