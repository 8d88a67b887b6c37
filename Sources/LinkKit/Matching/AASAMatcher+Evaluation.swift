extension AASAMatcher {
    /// Decides for one app: its first matching rule, in file order across all the entries that list it.
    /// - Parameters:
    ///   - url: the URL (the caller has checked that it belongs to the domain serving this file).
    ///   - appID: the app (compared case-insensitively).
    /// - Returns: `match`, `exclude` or `noMatch`, with the deciding rule.
    public func decision(for url: AASAURL, appID: String) -> AppDecision {
        guard let group = core.groupOfApp[appID.lowercased()] else { return AppDecision(appID: appID, outcome: .noMatch, rule: nil) }
        var subject = MatchSubject(url)
        return appDecision(appID, core.decide(group: group, url: url, subject: &subject))
    }

    /// Decides which app opens `url`: the earliest deciding `details` entry among apps that match; if none
    /// matches, the first block; otherwise nothing (docs/aasa-semantics.md §3).
    /// - Parameter url: the URL (the caller has checked that it belongs to the domain serving this file).
    public func resolve(_ url: AASAURL) -> AASAResolution {
        var subject = MatchSubject(url)
        let groupDecisions = core.groupDecisions(url, subject: &subject)
        let decisions = core.appIDs.indices.map { index in
            appDecision(core.appIDs[index], groupDecisions[core.groupOfAppIndex[index]])
        }
        guard let deciding = core.decidingApp(groupDecisions) else {
            return AASAResolution(appID: nil, decision: nil, decisions: decisions)
        }
        return AASAResolution(
            appID: deciding.opens ? decisions[deciding.app].appID : nil, decision: decisions[deciding.app], decisions: decisions)
    }

    private func appDecision(_ appID: String, _ decision: RuleMatcher.GroupDecision) -> AppDecision {
        AppDecision(appID: appID, outcome: decision.outcome, rule: decision.entry.map { rules[Int($0)] })
    }

    /// The rules of `appID` tried in order for `url`, up to and including the deciding one (for `aasa match`).
    /// Evaluates linearly, without the index: also a reference the indexed path is tested against.
    /// - Parameters:
    ///   - url: the URL.
    ///   - appID: the app.
    public func trace(for url: AASAURL, appID: String) -> [RuleEvaluation] {
        guard let group = core.groupOfApp[appID.lowercased()], url.isWeb else { return [] }
        var subject = MatchSubject(url)
        var steps: [RuleEvaluation] = []
        for number in groups[group].ruleNumbers {
            let matched = core.rules.matches(Int(number), &subject)
            steps.append(RuleEvaluation(rule: rules[Int(number)], matched: matched))
            if matched { break }
        }
        return steps
    }
}
