/// The matching core of an AASA file (docs/aasa-semantics.md §3): compiled rules, the `details` entries that list them
/// in file order, and the apps grouped by the entries they appear in, each group with its prefix index.
///
/// `AASAMatcher` builds one from any file (one compiled rule per component); `CompiledDomain` builds one from the
/// entries it writes into its AASA file (one compiled rule per `LinkRule`). Android reads the rules its own way
/// (`AndroidAppLinks`, docs/ANDROID.md).
///
/// A class (immutable, so `Sendable`): resolving takes one reference to the matcher, where copying a
/// struct of this many arrays retained each of them, on objects every request thread shares.
final class RuleMatcher: Sendable {
    /// One rule of one `details` entry: which compiled rule, and where the entry writes it in the file.
    struct Entry: Sendable, Equatable {
        let rule: Int32
        let detail: Int32
        let component: Int32
    }

    /// Apps listed in exactly the same details entries share one group: they get the same decision.
    struct Group: Sendable {
        let apps: [String]
        /// The group's entries, in file order.
        let ruleNumbers: [Int32]
        let index: PrefixIndex
    }

    /// What one group's rules decide: the deciding entry, or nil for no match.
    struct GroupDecision {
        let outcome: AppDecision.Outcome
        let entry: Int32?
    }

    let rules: CompiledRuleSet
    /// Every entry of every detail, in file order (details order, then component order): entry numbers compare as
    /// `(detail, component)` positions do.
    let entries: Entries
    /// Every app named in the details, in order of first appearance.
    let appIDs: [String]
    let groups: [Group]
    let groupOfApp: [String: Int]
    /// The group of `appIDs[i]`, so resolving needs no string work.
    let groupOfAppIndex: [Int]

    /// Builds the core.
    /// - Parameters:
    ///   - rules: the compiled rules the details refer to.
    ///   - details: per `details` entry, its apps and the numbers (in `rules`) of its rules in order.
    init(rules: [CompiledRule], details: [(appIDs: [String], rules: [Int32])]) {
        self.rules = CompiledRuleSet(rules)
        let entries = Entries(details.map(\.rules))
        var entriesOfDetail: [[Int32]] = []
        var next: Int32 = 0
        for detail in details {
            entriesOfDetail.append(Array(next..<next + Int32(detail.rules.count)))
            next += Int32(detail.rules.count)
        }
        self.entries = entries

        let appIDs = Self.appIDs(details)
        var detailsOfApp: [String: [Int]] = [:]
        for (detailIndex, detail) in details.enumerated() {
            for appID in detail.appIDs {
                let key = appID.lowercased()
                if detailsOfApp[key]?.last != detailIndex { detailsOfApp[key, default: []].append(detailIndex) }
            }
        }
        self.appIDs = appIDs
        var groups: [Group] = []
        var groupOfDetails: [[Int]: Int] = [:]
        var groupOfApp: [String: Int] = [:]
        for appID in appIDs {
            let key = appID.lowercased()
            let details = detailsOfApp[key] ?? []
            if let existing = groupOfDetails[details] {
                groupOfApp[key] = existing
                groups[existing] = Group(
                    apps: groups[existing].apps + [appID], ruleNumbers: groups[existing].ruleNumbers, index: groups[existing].index)
                continue
            }
            let numbers = details.flatMap { entriesOfDetail[$0] }
            let indexed = numbers.compactMap { number -> (number: Int32, form: MatchSubject.Form, prefix: [UInt8], exact: [UInt8]?)? in
                let rule = rules[Int(entries.rule(number))]
                guard !rule.never else { return nil }
                let keys = rule.indexKeys
                return (number, rule.form, keys.prefix, keys.exact)
            }
            groupOfDetails[details] = groups.count
            groupOfApp[key] = groups.count
            groups.append(Group(apps: [appID], ruleNumbers: numbers.compacted(), index: PrefixIndex(indexed)))
        }
        self.groups = groups
        self.groupOfApp = groupOfApp
        groupOfAppIndex = appIDs.map { groupOfApp[$0.lowercased()]! }
    }

    /// The declared substitution variables by name (a later declaration of a name replaces an earlier one).
    static func variables(_ declared: [SubstitutionVariable]) -> [String: [String]] {
        var variables: [String: [String]] = [:]
        for variable in declared { variables[variable.name] = variable.values }
        return variables
    }

    /// The apps of `details`, in order of first appearance, each spelt as it first appears: bundle IDs are
    /// case-insensitive (A12), one app however it is spelt.
    static func appIDs(_ details: [(appIDs: [String], rules: [Int32])]) -> [String] {
        var appIDs: [String] = []
        var seen: Set<String> = []
        for detail in details {
            for appID in detail.appIDs where seen.insert(appID.lowercased()).inserted { appIDs.append(appID) }
        }
        return appIDs
    }

    /// The effective settings of `component` in a details entry with `detailDefaults` of a file with `fileDefaults`
    /// (built-in ← `applinks.defaults` ← `details[].defaults` ← the component; docs/aasa-semantics.md §3, §6).
    static func effective(_ component: AASAComponent, detailDefaults: AASAComponent?, fileDefaults: AASAComponent?) -> AASAComponent {
        var effective = component.inheriting(from: (detailDefaults ?? AASAComponent()).inheriting(from: fileDefaults))
        effective.options.comment = component.comment
        return effective
    }

    /// The decision of every group for `url`, in group order.
    func groupDecisions(_ url: AASAURL, subject: inout MatchSubject) -> [GroupDecision] {
        var decisions: [GroupDecision] = []
        decisions.reserveCapacity(groups.count)
        for group in groups.indices { decisions.append(decide(group: group, url: url, subject: &subject)) }
        return decisions
    }

    /// The app that opens `url` and its deciding entry: the earliest deciding entry among apps that match; if none
    /// matches, the first block; otherwise nil (docs/aasa-semantics.md §3). Apps are in order of first appearance, so a
    /// tie on the entry keeps the first listed app.
    func decidingApp(_ groupDecisions: [GroupDecision]) -> (app: Int, entry: Int32, opens: Bool)? {
        var winner: (app: Int, entry: Int32)?
        var firstBlock: (app: Int, entry: Int32)?
        for index in appIDs.indices {
            let decision = groupDecisions[groupOfAppIndex[index]]
            guard let entry = decision.entry else { continue }
            switch decision.outcome {
            case .match: if winner == nil || entry < winner!.entry { winner = (index, entry) }
            case .exclude: if firstBlock == nil || entry < firstBlock!.entry { firstBlock = (index, entry) }
            case .noMatch: break
            }
        }
        if let winner { return (winner.app, winner.entry, true) }
        if let firstBlock { return (firstBlock.app, firstBlock.entry, false) }
        return nil
    }

    /// The first entry of `group` that matches `url`, found through the group's prefix index.
    func decide(group: Int, url: AASAURL, subject: inout MatchSubject) -> GroupDecision {
        // Universal links are http(s) links; any other scheme never opens an app.
        guard url.isWeb else { return GroupDecision(outcome: .noMatch, entry: nil) }
        let found = groups[group].index.firstMatch(&subject) { number, subject in
            rules.matches(Int(entries.rule(number)), &subject)
        }
        guard let found else { return GroupDecision(outcome: .noMatch, entry: nil) }
        return GroupDecision(outcome: rules.exclude(Int(entries.rule(found))) ? .exclude : .match, entry: found)
    }
}
