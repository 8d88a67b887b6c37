extension CompiledDomain {
    /// `platform`'s `details` entries, as apps and rule positions: consecutive rules for the same apps share one
    /// entry, so the order iOS evaluates is exactly the rule order.
    static func details(
        _ platform: AppPlatform, settings: DomainSettings, rules: [LinkRule], apps: [String: DomainApp]
    )
        -> [(appIDs: [String], rules: [Int32])]
    {
        // Runs of consecutive rules for the same apps: (apps, rule positions).
        var runs: [(apps: [String], positions: [Int32])] = []
        // Consecutive rules usually name the same apps: their identifiers are looked up once per change.
        var previous: (apps: [String], identifiers: [String])?
        for (position, rule) in rules.enumerated() {
            let identifiers: [String]
            if let previous, previous.apps == rule.apps {
                identifiers = previous.identifiers
            } else {
                identifiers = rule.apps.compactMap { apps[$0] }.filter { $0.platform == platform }.map(\.identifier)
                previous = (rule.apps, identifiers)
            }
            guard !identifiers.isEmpty else { continue }
            if runs.last?.apps == identifiers {
                runs[runs.count - 1].positions.append(Int32(position))
            } else {
                runs.append((identifiers, [Int32(position)]))
            }
        }
        // iOS 12 reads one `appID` per entry: there a run for [A, B] becomes an entry for A then one for B,
        // which keeps each app's rule order and the first-listed app's precedence.
        guard settings.legacyPaths && platform == .ios else { return runs.map { ($0.apps, $0.positions) } }
        return runs.flatMap { run in run.apps.map { ([$0], run.positions) } }
    }

    /// The AASA file of the iOS `details` entries.
    /// - Parameter components: the component each rule writes, in rule order.
    static func aasaFile(
        settings: DomainSettings, components: [AASAComponent], apps: [String: DomainApp],
        details: [(appIDs: [String], rules: [Int32])]
    ) -> AASAFile {
        let legacy = settings.legacyPaths
        var file = AASAFile(
            applinks: AppLinks(
                apps: legacy ? [] : nil,
                defaults: settings.defaults,
                substitutionVariables: settings.substitutionVariables,
                details: details.map { detail in
                    let written = detail.rules.map { components[Int($0)] }
                    return AppLinksDetail(
                        appIDs: detail.appIDs, components: written, paths: legacy ? written.compactMap(\.legacyPath) : nil)
                }
            ))
        let webcredentials = settings.webcredentials.compactMap { apps[$0] }.filter { $0.platform == .ios }.map(\.identifier)
        let appclips = settings.appclips.compactMap { apps[$0] }.filter { $0.platform == .ios }.map(\.identifier)
        if !webcredentials.isEmpty { file.webcredentials = ServiceApps(apps: webcredentials) }
        if !appclips.isEmpty { file.appclips = ServiceApps(apps: appclips) }
        return file
    }

    static func appsByID(_ apps: [DomainApp]) -> [String: DomainApp] {
        Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `platform`'s apps that the rules name, in order of first appearance.
    static func apps(_ platform: AppPlatform, rules: [LinkRule], apps: [String: DomainApp]) -> [DomainApp] {
        var order: [DomainApp] = []
        var seen: Set<String> = []
        var previous: [String]?
        for rule in rules where rule.apps != previous { // (consecutive rules usually name the same apps)
            previous = rule.apps
            for id in rule.apps {
                guard let app = apps[id], app.platform == platform, seen.insert(app.id).inserted else { continue }
                order.append(app)
            }
        }
        return order
    }

    /// The Android statement list: `handle_all_urls` for every Android app a rule names (in order of first
    /// appearance), plus `get_login_creds` for those listed under `webcredentials`; with `androidDynamicRules`, each
    /// `handle_all_urls` statement carries the app's rules as `dynamic_app_link_components` (docs/ANDROID.md).
    /// - Parameter android: the rules as Android reads them, given when the domain serves dynamic rules.
    static func assetLinks(settings: DomainSettings, rules: [LinkRule], apps: [String: DomainApp], android: AndroidAppLinks?) -> JSONValue {
        var order: [DomainApp] = []
        var seen: Set<String> = []
        var named: Set<String> = []
        var previous: [String]?
        for rule in rules where rule.apps != previous { // (consecutive rules usually name the same apps)
            previous = rule.apps
            for id in rule.apps {
                named.insert(id)
                guard let app = apps[id], app.platform == .android, seen.insert(app.id).inserted else { continue }
                order.append(app)
            }
        }
        for id in settings.webcredentials {
            guard let app = apps[id], app.platform == .android, seen.insert(app.id).inserted else { continue }
            order.append(app)
        }
        let credentials = Set(settings.webcredentials)
        return .array(
            order.map { app in
                var relations: [JSONValue] = []
                if named.contains(app.id) { relations.append(.string("delegate_permission/common.handle_all_urls")) }
                if credentials.contains(app.id) { relations.append(.string("delegate_permission/common.get_login_creds")) }
                var statement: [JSONMember] = [
                    JSONMember(key: "relation", value: .array(relations)),
                    JSONMember(
                        key: "target",
                        value: .object([
                            "namespace": .string("android_app"),
                            "package_name": .string(app.identifier),
                            "sha256_cert_fingerprints": .array(app.fingerprints.map(JSONValue.string)),
                        ])),
                ]
                if settings.androidDynamicRules, let android, named.contains(app.id) {
                    let components = JSONValue.array(android.dynamicComponents(of: app).map(\.json))
                    statement.append(
                        JSONMember(
                            key: "relation_extensions",
                            value: .object([
                                JSONMember(key: AssetLinksFile.handleAllURLs, value: .object(["dynamic_app_link_components": components]))
                            ])))
                }
                return .object(statement)
            })
    }
}

private extension AASAComponent {
    /// The legacy (iOS 12 and older) `paths` entry of a rule's component, or nil when the rule cannot be written
    /// that way without widening what it claims: legacy paths see only the path, so a positive rule that also
    /// constrains query or fragment is left out, while an exclusion is kept (excluding more is safe).
    var legacyPath: String? {
        let pattern = path ?? "*"
        if self.exclude == true { return "NOT " + pattern }
        if query != nil || fragment != nil || self.caseSensitive == false || self.percentEncoded == false { return nil }
        return pattern
    }
}
