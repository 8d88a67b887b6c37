extension CompiledDomain {
    /// The apps this domain's rules name for `platform` (those its file lists), in order of first appearance.
    public func appsNamedByRules(_ platform: AppPlatform) -> [DomainApp] {
        platform == .ios ? iosAppsNamed : androidApps
    }

    /// What `url` does for `app` alone, the other apps' rules aside: a custom-scheme link (as the https URL on
    /// this domain, `AASAURL.universal(on:)`) goes to the app that registered the scheme, so only that app's rules
    /// decide. `open_app` when its first deciding rule opens, `no_match` otherwise (an exclusion included).
    /// - Parameter ruleID: as in `resolve(_:platform:ruleID:)`.
    public func resolve(_ url: AASAURL, for app: DomainApp, ruleID: (Int) -> String? = { _ in nil }) -> LinkResolution {
        if app.platform == .android {
            guard let decision = android.decide(url, onlyApp: app.id), decision.opens else { return .noMatch }
            let rule = packed[decision.position, id: ruleID(decision.position)]
            var subject = MatchSubject(url)
            let target = destination(of: rule, for: app, url: url, subject: &subject)
            return LinkResolution(
                outcome: .openApp, app: app, rule: rule, position: decision.position, detailIndex: decision.app,
                componentIndex: nil, destination: target)
        }
        let tables = iosTablesNow
        guard let index = tables.apps.firstIndex(where: { $0?.id == app.id }) else { return .noMatch }
        let matcher = tables.matcher
        var subject = MatchSubject(url)
        let decision = matcher.decide(group: matcher.groupOfAppIndex[index], url: url, subject: &subject)
        guard decision.outcome == .match, let found = decision.entry else { return .noMatch }
        let entry = matcher.entries[found]
        let position = Int(entry.rule)
        let rule = packed[position, id: ruleID(position)]
        let target = destination(of: rule, for: app, url: url, subject: &subject)
        return LinkResolution(
            outcome: .openApp, app: app, rule: rule, position: position, detailIndex: Int(entry.detail),
            componentIndex: Int(entry.component), destination: target)
    }
}
