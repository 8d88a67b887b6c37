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
            var earlier: [Int32] = []
            for number in group.ruleNumbers {
                let rule = matcher.rules[Int(number)]
                if rule.effective.isMalformed { continue }
                if let cover = earlier.first(where: { Self.covers(matcher.rules[Int($0)], rule) }) {
                    if shadowedBy[number] == nil { shadowedBy[number] = cover }
                } else {
                    reachableSomewhere.insert(number)
                }
                earlier.append(number)
            }
        }
        for (number, cover) in shadowedBy.sorted(by: { $0.key < $1.key }) where !reachableSomewhere.contains(number) {
            let rule = matcher.rules[Int(number)]
            let earlierRule = matcher.rules[Int(cover)]
            let reason = Self.isCatchAll(earlierRule) ? "matches every URL" : "has the same pattern"
            add(.warning, "unreachableRule", rule.pointer, "this rule can never match: the earlier rule at \(earlierRule.pointer) \(reason), so it decides first")
        }
    }

    static func covers(_ earlier: AASARule, _ later: AASARule) -> Bool {
        isCatchAll(earlier) || key(earlier) == key(later)
    }

    static func isCatchAll(_ rule: AASARule) -> Bool {
        let settings = rule.effective
        return !settings.isMalformed && CompiledRule.normalizedPath(settings.path ?? "*").pattern == "/*"
            && (settings.query == nil || settings.query == .string("*"))
            && (settings.fragment ?? "*") == "*"
    }

    private struct Key: Hashable {
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
