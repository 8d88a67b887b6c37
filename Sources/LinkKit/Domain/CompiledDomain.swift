/// A link domain compiled once from its settings, apps and ordered rules: the rendered association
/// files and the matchers that resolve URLs with exactly the semantics each platform applies to them.
///
/// Each rule is compiled once (`CompiledRule`, from the component it writes into the file, with the file's
/// defaults and variables); the iOS matcher (`RuleMatcher`) lists those rules in the very `details` entries of
/// the AASA file. The matcher is made on the domain's first resolve: a catalog serves most domains' AASA bytes
/// only, and the matcher (prefix indexes, compiled patterns) is the largest part of a compiled domain. Android reads the same rules as the generated manifest's intent filters and, when the domain
/// enables them, the dynamic rules of `assetlinks.json` (`AndroidAppLinks`, docs/ANDROID.md), made on first use:
/// a catalog of thousands of domains serves Android resolves for few of them, and the tables hold a translated
/// pattern per rule. Only the files' bytes are kept: the `AASAFile` and assetlinks trees are rebuilt on demand.
public struct CompiledDomain: Sendable {
    public let settings: DomainSettings
    /// The rules, packed: resolve unpacks the deciding one.
    let packed: PackedRules
    public let apps: [DomainApp]
    /// The `apple-app-site-association` file's canonical bytes (what is served and hashed).
    public let aasaBytes: [UInt8]
    /// The `assetlinks.json` statement list's canonical bytes.
    public private(set) var assetLinksBytes: [UInt8]

    /// The iOS apps the rules name (the matcher's apps that the domain has), known without the matcher.
    let iosAppsNamed: [DomainApp]
    /// `ios` and `iosApps`, once asked for.
    private let iosTables = LazyReference<IOSTables>()
    /// The Android apps the rules name, in order of first appearance (`android.apps`' apps, known without the tables).
    let androidApps: [DomainApp]
    /// `android`, once asked for.
    private let androidTables = LazyReference<AndroidAppLinks>()

    /// Compiles a domain. Rules referring to unknown apps simply do not apply to them.
    /// A capture bound only to optional parameters is marked optional in the rules it compiles
    /// (`LinkRule.withOptionalCaptures`), so the files, both matchers, resolve and build read it alike.
    public init(settings: DomainSettings, apps: [DomainApp], rules: [LinkRule]) {
        self.settings = settings
        let byID = Self.appsByID(apps)
        // Consecutive rules usually name the same apps and type: their optional parameters are looked up once per change.
        var previous: (apps: [String], type: String, optional: [String])?
        var rules = rules
        // (Rules are replaced in place, only those with an optional capture: most domains have none.)
        for index in rules.indices {
            guard let type = rules[index].destination?.type, rules[index].exclude != true else { continue }
            let optional: [String]
            if let previous, previous.type == type, previous.apps == rules[index].apps {
                optional = previous.optional
            } else {
                optional = LinkRule.optionalParameters(of: type, apps: rules[index].apps, in: byID)
                previous = (rules[index].apps, type, optional)
            }
            if !optional.isEmpty, rules[index].capturesAny(of: optional) { rules[index] = rules[index].withOptionalCaptures(apps: byID) }
        }
        packed = PackedRules(rules)
        self.apps = apps
        let iosDetails = Self.details(.ios, settings: settings, rules: rules, apps: byID)
        androidApps = Self.apps(.android, rules: rules, apps: byID)
        iosAppsNamed = IOSTables.apps(of: RuleMatcher.appIDs(iosDetails), in: apps).compactMap { $0 }
        aasaBytes = AASAWriter.file(settings: settings, rules: rules, apps: byID, details: iosDetails)
        // The dynamic rules need the tables; they are made for the file and not kept (`android` makes them again).
        let android = settings.androidDynamicRules ? AndroidAppLinks(settings: settings, rules: rules, apps: byID) : nil
        assetLinksBytes = Self.assetLinks(settings: settings, rules: rules, apps: byID, android: android).serializedBytes.compacted()
    }

    /// Holds `bytes`, equal to `assetLinksBytes`, in their place: domains whose statement lists are identical (a
    /// workspace's domains naming the same Android apps) then hold one copy.
    public mutating func share(assetLinks bytes: [UInt8]) {
        precondition(bytes == assetLinksBytes, "shared assetlinks bytes differ from the domain's")
        assetLinksBytes = bytes
    }

    /// The rules as Android reads them: the generated manifest's path attributes and the dynamic rules (made on
    /// first use, then kept).
    public var android: AndroidAppLinks {
        androidTables.object { AndroidAppLinks(settings: settings, rules: rules, apps: Self.appsByID(apps)) }
    }

    /// Whether `android` has been made (the tables are held only once asked for).
    var androidTablesMade: Bool { androidTables.isMade }

    /// The iOS matcher over the rules with the app of each of its `appIDs`, made on first use, then kept.
    final class IOSTables: Sendable {
        /// The matcher over the rules (`CompiledRule` `i` is `rules[i]`'s), in the AASA file's entries.
        let matcher: RuleMatcher
        /// The app of each of the matcher's `appIDs` (nil for an identifier no app of the domain has).
        let apps: [DomainApp?]

        init(settings: DomainSettings, apps: [DomainApp], rules: [LinkRule]) {
            let details = CompiledDomain.details(.ios, settings: settings, rules: rules, apps: CompiledDomain.appsByID(apps))
            let variables = RuleMatcher.variables(settings.substitutionVariables)
            let compiled = rules.map { rule in
                CompiledRule(
                    effective: RuleMatcher.effective(rule.component, detailDefaults: nil, fileDefaults: settings.defaults),
                    variables: variables)
            }
            matcher = RuleMatcher(rules: compiled, details: details)
            self.apps = Self.apps(of: matcher.appIDs, in: apps)
        }

        /// The app of each identifier (nil for one no app of the domain has).
        static func apps(of identifiers: [String], in apps: [DomainApp]) -> [DomainApp?] {
            let byIdentifier = Dictionary(apps.map { ($0.identifier.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
            return identifiers.map { byIdentifier[$0.lowercased()] }
        }
    }

    /// The iOS matcher and its apps (made on first use).
    var iosTablesNow: IOSTables { iosTables.object { IOSTables(settings: settings, apps: apps, rules: rules) } }

    /// The matcher over the rules, in the AASA file's entries (made on first use).
    var ios: RuleMatcher { iosTablesNow.matcher }

    /// The app of each of the matcher's `appIDs` (made on first use).
    var iosApps: [DomainApp?] { iosTablesNow.apps }

    /// Whether the iOS matcher has been made.
    var iosMatcherMade: Bool { iosTables.isMade }

    /// The rules, in order (unpacked: rules are kept packed).
    public var rules: [LinkRule] { packed.all }

    /// The `apple-app-site-association` file (rebuilt: only its bytes are kept).
    public var aasa: AASAFile {
        let rules = self.rules
        let byID = Self.appsByID(apps)
        return Self.aasaFile(
            settings: settings, components: rules.map(\.component), apps: byID,
            details: Self.details(.ios, settings: settings, rules: rules, apps: byID))
    }

    /// The served AASA bytes as text.
    public var aasaJSON: String { String(decoding: aasaBytes, as: UTF8.self) }

    /// The `assetlinks.json` statement list (rebuilt: only its bytes are kept).
    public var assetLinks: JSONValue {
        Self.assetLinks(
            settings: settings, rules: self.rules, apps: Self.appsByID(apps), android: settings.androidDynamicRules ? android : nil)
    }

    /// The served assetlinks bytes as text.
    public var assetLinksJSON: String { String(decoding: assetLinksBytes, as: UTF8.self) }

    /// The position of the rule that wrote `details[detail].components[component]` of the served AASA file.
    public func rulePosition(detail: Int, component: Int) -> Int? {
        ios.entries.all.first { Int($0.detail) == detail && Int($0.component) == component }.map { Int($0.rule) }
    }

    /// Decides what `url` does for `platform`'s apps. The caller has checked that the URL's host is this domain.
    /// - Parameter ruleID: the id the deciding rule is reported with, from its position (nil: the compiled rule's):
    ///   a domain compiled once for several domains' identical rules reports each domain's own rule ids.
    public func resolve(_ url: AASAURL, platform: AppPlatform = .ios, ruleID: (Int) -> String? = { _ in nil }) -> LinkResolution {
        if platform == .android { return resolveAndroid(url, ruleID: ruleID) }
        let tables = iosTablesNow
        let (matcher, apps) = (tables.matcher, tables.apps)
        var subject = MatchSubject(url)
        guard let deciding = matcher.decidingApp(matcher.groupDecisions(url, subject: &subject)) else { return .noMatch }
        let entry = matcher.entries[deciding.entry]
        let position = Int(entry.rule)
        let detail = Int(entry.detail)
        let component = Int(entry.component)
        let rule = packed[position, id: ruleID(position)]
        let app = apps[deciding.app]
        guard deciding.opens else {
            return LinkResolution(
                outcome: .excluded, app: app, rule: rule, position: position, detailIndex: detail, componentIndex: component,
                destination: nil)
        }
        let target = app.flatMap { self.destination(of: rule, for: $0, url: url, subject: &subject) }
        return LinkResolution(
            outcome: .openApp, app: app, rule: rule, position: position, detailIndex: detail, componentIndex: component, destination: target
        )
    }

    /// What an Android 15+ device with the generated manifest and the served `assetlinks.json` does with `url`
    /// (`AndroidAppLinks.decide`); `detailIndex` is the deciding app's statement.
    private func resolveAndroid(_ url: AASAURL, ruleID: (Int) -> String?) -> LinkResolution {
        guard let decision = android.decide(url) else { return .noMatch }
        let app = android.apps[decision.app].app
        let rule = packed[decision.position, id: ruleID(decision.position)]
        guard decision.opens else {
            return LinkResolution(
                outcome: .excluded, app: app, rule: rule, position: decision.position, detailIndex: decision.app, componentIndex: nil,
                destination: nil)
        }
        var subject = MatchSubject(url)
        let target = destination(of: rule, for: app, url: url, subject: &subject)
        return LinkResolution(
            outcome: .openApp, app: app, rule: rule, position: decision.position, detailIndex: decision.app, componentIndex: nil,
            destination: target)
    }

    /// The typed destination of `rule` for `app`, from the URL's captures. `subject` is the URL as the matcher
    /// prepared it (its query items are split once for both).
    func destination(of rule: LinkRule, for app: DomainApp, url: AASAURL, subject: inout MatchSubject) -> ResolvedDestination? {
        guard let binding = rule.destination else { return nil }
        let caseSensitive = rule.caseSensitive ?? settings.defaults?.caseSensitive ?? true
        let percentEncoded = rule.percentEncoded ?? settings.defaults?.percentEncoded ?? true
        var captures: [String: String] = [:]
        func take(_ pattern: RulePattern?, _ text: String, isPath: Bool) -> Bool {
            guard let pattern else { return true }
            return pattern.captures(in: text, isPath: isPath, caseSensitive: caseSensitive, percentEncoded: percentEncoded, into: &captures)
        }
        var fits = take(rule.path, url.path, isPath: true) && take(rule.fragment, url.fragment ?? "", isPath: false)
        if case .items(let items)? = rule.query {
            // Items are split and their names compared exactly as the matcher does (CompiledRule); the value
            // goes to the template raw, which applies the same percent-encoding rule to it.
            let raw = subject.queryItems(MatchSubject.Form(percentEncoded: true, caseSensitive: true))
            let named = subject.queryItems(MatchSubject.Form(percentEncoded: percentEncoded, caseSensitive: caseSensitive))
            for item in items where fits {
                let name = caseSensitive ? item.name : item.name.lowercased()
                // Both forms list the same items in the same order.
                let value = (0..<named.count).first { named.name($0).elementsEqual(name.utf8) }.map {
                    String(decoding: raw.value($0), as: UTF8.self)
                }
                fits = take(item.pattern, value ?? "", isPath: false)
            }
        }
        guard fits else {
            return .error(
                DestinationError(
                    code: .invalidParam, param: nil,
                    detail:
                        "The URL is claimed by the rule's AASA pattern but does not fit its template (a capture such as {id} takes one path segment)."
                ))
        }
        return binding.resolve(captures: captures, destination: app.destinations[binding.type])
    }
}
