extension AASALinter {
    /// Warns about rules that can never decide because an earlier rule for the same app(s) already matches every URL
    /// they would: an identical pattern, or an earlier catch-all (`*` path, no query or fragment restriction).
    mutating func checkReachability(_ applinks: JSONValue) {
        guard let model = AppLinks(lenient: applinks) else { return }
        let matcher = AASAMatcher(AASAFile(applinks: model))
        // For each rule: the shadowing rule in every group that contains it; reported only if shadowed in all.
        var shadowedBy: [Int32: Int32] = [:]
        var reachableSomewhere: Set<Int32> = []
        for group in matcher.groups {
            // Linear: the first catch-all so far, and the first rule of each distinct pattern.
            var catchAll: Int32?
            var firstWithKey: [Key: Int32] = [:]
            for number in group.ruleNumbers {
                let rule = matcher.rules[Int(number)]
                if rule.effective.isMalformed { continue }
                let key = Self.key(rule)
                if let cover = catchAll ?? firstWithKey[key] {
                    if shadowedBy[number] == nil { shadowedBy[number] = cover }
                } else {
                    reachableSomewhere.insert(number)
                }
                if firstWithKey[key] == nil { firstWithKey[key] = number }
                if catchAll == nil, Self.isCatchAll(rule) { catchAll = number }
            }
        }
        for (number, cover) in shadowedBy.sorted(by: { $0.key < $1.key }) where !reachableSomewhere.contains(number) {
            let rule = matcher.rules[Int(number)]
            let earlierRule = matcher.rules[Int(cover)]
            let reason = Self.isCatchAll(earlierRule) ? "matches every URL" : "has the same pattern"
            add(.warning, "unreachableRule", rule.pointer, "this rule can never match: the earlier rule at \(earlierRule.pointer) \(reason), so it decides first")
        }
    }

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
            fragment: settings.fragment ?? "*", caseSensitive: settings.caseSensitive ?? true, percentEncoded: settings.percentEncoded ?? true
        )
    }
}
