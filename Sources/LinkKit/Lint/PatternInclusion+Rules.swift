/// Inclusion of whole rules: every URL one compiled rule matches, others match too. Path, query and fragment are
/// separate parts of a URL, so a rule covers another when each of its parts does; several rules cover one when
/// each covers its query and fragment and their paths together cover its path.
extension PatternInclusion {
    /// Whether every query (or fragment) `rule` accepts, `cover` accepts (docs/aasa-semantics.md §5): a query
    /// dictionary item is covered by the included rule's own item of that name, or, when it has none (any value,
    /// or none), must accept everything.
    static func queryAndFragment(of rule: CompiledRule, coveredBy cover: CompiledRule, budget: Budget? = nil) -> Bool {
        guard rule.form == cover.form else { return false }
        guard cover.fragment == nil || answer(rule.fragment, coveredBy: [cover.fragment], budget: budget) == .included else { return false }
        switch (cover.query, rule.query) {
        case (.any, _):
            return true
        case (.string(let covering), .string(let included)):
            return answer(included, coveredBy: [covering], budget: budget) == .included
        case (.string, _):
            return false
        case (.items(let covering), .items(let included)):
            return covering.allSatisfy { item in
                let own = included.filter { $0.name == item.name }
                if own.isEmpty { return answer(nil, coveredBy: [item.pattern], budget: budget) == .included }
                return own.contains { answer($0.pattern, coveredBy: [item.pattern], budget: budget) == .included }
            }
        case (.items(let covering), _):
            // (A whole-query pattern is read as any query: enough when every item accepts anything.)
            return covering.allSatisfy { answer(nil, coveredBy: [$0.pattern], budget: budget) == .included }
        }
    }

    /// Whether every path `rule` matches (its pattern and, for `/x/*`, its parent), one of `covers` matches.
    static func path(of rule: CompiledRule, coveredBy covers: [CompiledRule], budget: Budget? = nil) -> Answer {
        let covering = covers.flatMap { [$0.path] + ($0.parentPath.map { [$0] } ?? []) }
        for included in [rule.path] + (rule.parentPath.map { [$0] } ?? []) {
            let answer = answer(included, coveredBy: covering, isPath: true, budget: budget)
            if answer != .included { return answer }
        }
        return .included
    }
}
