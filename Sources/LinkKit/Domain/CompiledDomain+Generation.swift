extension CompiledDomain {
    /// Writes the rules of `platform`'s apps as `details` entries in rule order: consecutive rules for the
    /// same apps share one entry, so the order iOS evaluates is exactly the rule order.
    static func generate(_ platform: DomainApp.Platform, settings: DomainSettings, rules: [LinkRule], apps: [String: DomainApp])
        -> (file: AASAFile, generated: Generated) {
        // Runs of consecutive rules for the same apps: (apps, rule positions).
        var runs: [(apps: [String], positions: [Int])] = []
        for (position, rule) in rules.enumerated() {
            let identifiers = rule.apps.compactMap { apps[$0] }.filter { $0.platform == platform }.map(\.identifier)
            guard !identifiers.isEmpty else { continue }
            if runs.last?.apps == identifiers {
                runs[runs.count - 1].positions.append(position)
            } else {
                runs.append((identifiers, [position]))
            }
        }
        // iOS 12 reads one `appID` per entry: there a run for [A, B] becomes an entry for A then one for B,
        // which keeps each app's rule order and the first-listed app's precedence.
        let legacy = settings.legacyPaths && platform == .ios
        var details: [AppLinksDetail] = []
        var ruleAt: [[Int]] = []
        for run in runs {
            for members in legacy ? run.apps.map({ [$0] }) : [run.apps] {
                let runRules = run.positions.map { rules[$0] }
                details.append(AppLinksDetail(
                    appIDs: members,
                    components: runRules.map(\.component),
                    paths: legacy ? runRules.compactMap(\.legacyPath) : nil
                ))
                ruleAt.append(run.positions)
            }
        }
        let file = AASAFile(applinks: AppLinks(
            apps: legacy ? [] : nil,
            defaults: settings.defaults,
            substitutionVariables: settings.substitutionVariables,
            details: details
        ))
        return (file, Generated(matcher: AASAMatcher(file), ruleAt: ruleAt))
    }

    /// The Android statement list: `handle_all_urls` for every Android app a rule names (in order of first
    /// appearance), plus `get_login_creds` for those listed under `webcredentials`.
    static func assetLinks(settings: DomainSettings, rules: [LinkRule], apps: [String: DomainApp]) -> JSONValue {
        var order: [DomainApp] = []
        var seen: Set<String> = []
        for id in rules.flatMap(\.apps) + settings.webcredentials {
            guard let app = apps[id], app.platform == .android, seen.insert(app.id).inserted else { continue }
            order.append(app)
        }
        let credentials = Set(settings.webcredentials)
        return .array(order.map { app in
            var relations: [JSONValue] = []
            if rules.contains(where: { $0.apps.contains(app.id) }) { relations.append(.string("delegate_permission/common.handle_all_urls")) }
            if credentials.contains(app.id) { relations.append(.string("delegate_permission/common.get_login_creds")) }
            return .object([
                "relation": .array(relations),
                "target": .object([
                    "namespace": .string("android_app"),
                    "package_name": .string(app.identifier),
                    "sha256_cert_fingerprints": .array(app.fingerprints.map(JSONValue.string)),
                ]),
            ])
        })
    }
}
