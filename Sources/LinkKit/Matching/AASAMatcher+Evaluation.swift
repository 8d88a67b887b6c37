extension AASAMatcher {
    /// Decides for one app: its first matching rule, in file order across all the entries that list it.
    /// - Parameters:
    ///   - url: the URL (the caller has checked that it belongs to the domain serving this file).
    ///   - appID: the app (compared case-insensitively).
    /// - Returns: `match`, `exclude` or `noMatch`, with the deciding rule.
    public func decision(for url: AASAURL, appID: String) -> AppDecision {
        guard let group = groupOfApp[appID.lowercased()] else { return AppDecision(appID: appID, outcome: .noMatch, rule: nil) }
        var subject = MatchSubject(url)
        return decide(group: group, appID: appID, url: url, subject: &subject)
    }

    /// Decides which app opens `url`: the earliest deciding `details` entry among apps that match; if none
    /// matches, the first block; otherwise nothing (AASA-SEMANTICS §3).
    /// - Parameter url: the URL (the caller has checked that it belongs to the domain serving this file).
    public func resolve(_ url: AASAURL) -> AASAResolution {
        var subject = MatchSubject(url)
        var groupDecisions: [AppDecision] = []
        groupDecisions.reserveCapacity(groups.count)
        for (number, group) in groups.enumerated() {
            groupDecisions.append(decide(group: number, appID: group.apps[0], url: url, subject: &subject))
        }
        var decisions: [AppDecision] = []
        decisions.reserveCapacity(appIDs.count)
        var winner: AppDecision?
        var firstBlock: AppDecision?
        // Decisions are in order of first appearance, so a tie on the entry keeps the first listed app.
        func earlier(_ candidate: AppDecision, than current: AppDecision?) -> Bool {
            guard let current else { return true }
            return (candidate.detailIndex!, candidate.componentIndex!) < (current.detailIndex!, current.componentIndex!)
        }
        for (index, appID) in appIDs.enumerated() {
            let shared = groupDecisions[groupOfAppIndex[index]]
            let decision = AppDecision(appID: appID, outcome: shared.outcome, rule: shared.rule)
            decisions.append(decision)
            switch decision.outcome {
            case .match: if earlier(decision, than: winner) { winner = decision }
            case .exclude: if earlier(decision, than: firstBlock) { firstBlock = decision }
            case .noMatch: break
            }
        }
        return AASAResolution(appID: winner?.appID, decision: winner ?? firstBlock, decisions: decisions)
    }

    /// The rules of `appID` tried in order for `url`, up to and including the deciding one (for `aasa match`).
    /// Evaluates linearly, without the index: also a reference the indexed path is tested against.
    /// - Parameters:
    ///   - url: the URL.
    ///   - appID: the app.
    public func trace(for url: AASAURL, appID: String) -> [RuleEvaluation] {
        guard let group = groupOfApp[appID.lowercased()], Self.isWebURL(url) else { return [] }
        var subject = MatchSubject(url)
        var steps: [RuleEvaluation] = []
        for number in groups[group].ruleNumbers {
            let matched = compiled[Int(number)].matches(&subject)
            steps.append(RuleEvaluation(rule: compiled[Int(number)].rule, matched: matched))
            if matched { break }
        }
        return steps
    }

    private func decide(group: Int, appID: String, url: AASAURL, subject: inout MatchSubject) -> AppDecision {
        // Universal links are http(s) links; any other scheme never opens an app.
        guard Self.isWebURL(url) else { return AppDecision(appID: appID, outcome: .noMatch, rule: nil) }
        let found = groups[group].index.firstMatch(&subject) { number, subject in
            compiled[Int(number)].matches(&subject)
        }
        guard let found else { return AppDecision(appID: appID, outcome: .noMatch, rule: nil) }
        let rule = compiled[Int(found)]
        return AppDecision(appID: appID, outcome: rule.exclude ? .exclude : .match, rule: rule.rule)
    }

    static func isWebURL(_ url: AASAURL) -> Bool { url.scheme == "https" || url.scheme == "http" }
}
