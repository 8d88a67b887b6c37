/// An AASA file compiled once for matching URLs the way iOS does (AASA-SEMANTICS §3–§7). A `Sendable` value:
/// build it when the file changes, share it between threads, call it per request.
///
/// Rules are indexed by literal path prefix, so a file with 10,000 rules with distinct prefixes decides about as
/// fast as one with 10, while candidates are still tried in file order (first match wins).
public struct AASAMatcher: Sendable {
    /// Every app named in `applinks.details`, in order of first appearance.
    public let appIDs: [String]

    /// Every rule compiled, in file order (details order, then component or path order); each keeps its `AASARule`.
    let compiled: [CompiledRule]
    /// Apps listed in exactly the same details entries share one group: they get the same decision.
    let groups: [Group]
    let groupOfApp: [String: Int]
    /// The group of `appIDs[i]`, so resolving needs no string work.
    let groupOfAppIndex: [Int]

    struct Group: Sendable {
        let apps: [String]
        let ruleNumbers: [Int32]
        let index: PrefixIndex
    }

    /// Compiles `file`.
    /// - Parameter file: the decoded AASA file.
    public init(_ file: AASAFile) {
        let applinks = file.applinks ?? AppLinks()
        var variables: [String: [String]] = [:]
        for variable in applinks.substitutionVariables { variables[variable.name] = variable.values }
        var rules: [AASARule] = []
        var rulesOfDetail: [[Int32]] = []
        for (detailIndex, detail) in applinks.details.enumerated() {
            var numbers: [Int32] = []
            let detailDefaults = (detail.defaults ?? AASAComponent()).inheriting(from: applinks.defaults)
            if let components = detail.components {
                // iOS 13+ ignores `paths` whenever `components` is present, even empty (W19, case lg-11).
                for (componentIndex, component) in components.enumerated() {
                    var effective = component.inheriting(from: detailDefaults)
                    effective.comment = component.comment
                    numbers.append(Int32(rules.count))
                    rules.append(AASARule(detailIndex: detailIndex, componentIndex: componentIndex, legacyPath: nil, effective: effective))
                }
            } else if let paths = detail.paths {
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
            rulesOfDetail.append(numbers)
        }
        let compiled = rules.map { CompiledRule(rule: $0, variables: variables) }
        self.compiled = compiled

        var appIDs: [String] = []
        var detailsOfApp: [String: [Int]] = [:]
        var spelling: [String: String] = [:]
        for (detailIndex, detail) in applinks.details.enumerated() {
            for appID in detail.appIDs {
                // Bundle IDs are case-insensitive (A12): one app however it is spelt.
                let key = appID.lowercased()
                if spelling[key] == nil { spelling[key] = appID; appIDs.append(appID) }
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
                groups[existing] = Group(apps: groups[existing].apps + [appID], ruleNumbers: groups[existing].ruleNumbers, index: groups[existing].index)
                continue
            }
            let numbers = details.flatMap { rulesOfDetail[$0] }
            let entries = numbers.filter { !compiled[Int($0)].never }.map { number in
                let keys = compiled[Int(number)].indexKeys
                return (number: number, form: compiled[Int(number)].form, prefix: keys.prefix, exact: keys.exact)
            }
            groupOfDetails[details] = groups.count
            groupOfApp[key] = groups.count
            groups.append(Group(apps: [appID], ruleNumbers: numbers, index: PrefixIndex(entries)))
        }
        self.groups = groups
        self.groupOfApp = groupOfApp
        groupOfAppIndex = appIDs.map { groupOfApp[$0.lowercased()]! }
    }
}
