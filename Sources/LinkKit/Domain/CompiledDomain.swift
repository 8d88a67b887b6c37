/// A link domain compiled once from its settings, apps and ordered rules: the rendered association
/// files and the matchers that resolve URLs with exactly the semantics iOS applies to those files.
///
/// The iOS matcher runs over the very `AASAFile` that is served; Android rules are compiled the same way
/// (package names in place of appIDs), so one rule list means one behaviour everywhere.
public struct CompiledDomain: Sendable {
    public let settings: DomainSettings
    public let rules: [LinkRule]
    public let apps: [DomainApp]
    /// The `apple-app-site-association` file.
    public let aasa: AASAFile
    /// Its canonical bytes (what is served and hashed).
    public let aasaJSON: String
    /// The `assetlinks.json` statement list and its canonical bytes.
    public let assetLinks: JSONValue
    public let assetLinksJSON: String

    private let ios: Generated
    private let android: Generated
    private let appsByIdentifier: [String: DomainApp]

    /// One platform's matcher, and which rule each `(detail, component)` of its file came from (the file itself
    /// is not kept: the matcher has compiled it, and the iOS one is `aasa`).
    struct Generated: Sendable {
        let matcher: AASAMatcher
        let ruleAt: [[Int]]
    }

    /// Compiles a domain. Rules referring to unknown apps simply do not apply to them.
    public init(settings: DomainSettings, apps: [DomainApp], rules: [LinkRule]) {
        self.settings = settings
        self.rules = rules
        self.apps = apps
        let byID = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        appsByIdentifier = Dictionary(apps.map { ($0.identifier.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var file: AASAFile
        (file, ios) = Self.generate(.ios, settings: settings, rules: rules, apps: byID)
        android = Self.generate(.android, settings: settings, rules: rules, apps: byID).generated

        let webcredentials = settings.webcredentials.compactMap { byID[$0] }.filter { $0.platform == .ios }.map(\.identifier)
        let appclips = settings.appclips.compactMap { byID[$0] }.filter { $0.platform == .ios }.map(\.identifier)
        if !webcredentials.isEmpty { file.webcredentials = ServiceApps(apps: webcredentials) }
        if !appclips.isEmpty { file.appclips = ServiceApps(apps: appclips) }
        aasa = file
        aasaJSON = file.encoded()
        assetLinks = Self.assetLinks(settings: settings, rules: rules, apps: byID)
        assetLinksJSON = assetLinks.serialized
    }

    /// The position of the rule that wrote `details[detail].components[component]` of the served AASA file.
    public func rulePosition(detail: Int, component: Int) -> Int? {
        guard detail < ios.ruleAt.count, component < ios.ruleAt[detail].count else { return nil }
        return ios.ruleAt[detail][component]
    }

    /// Decides what `url` does for `platform`'s apps. The caller has checked that the URL's host is this domain.
    public func resolve(_ url: AASAURL, platform: DomainApp.Platform = .ios) -> LinkResolution {
        let generated = platform == .ios ? ios : android
        let resolution = generated.matcher.resolve(url)
        guard let decision = resolution.decision, let detail = decision.detailIndex, let component = decision.componentIndex,
              detail < generated.ruleAt.count, component < generated.ruleAt[detail].count
        else { return .noMatch }
        let position = generated.ruleAt[detail][component]
        let rule = rules[position]
        let app = appsByIdentifier[decision.appID.lowercased()]
        guard resolution.appID != nil else {
            return LinkResolution(outcome: .excluded, app: app, rule: rule, position: position, detailIndex: detail, componentIndex: component, destination: nil)
        }
        let target = app.flatMap { self.destination(of: rule, for: $0, url: url) }
        return LinkResolution(outcome: .openApp, app: app, rule: rule, position: position, detailIndex: detail, componentIndex: component, destination: target)
    }

    /// The typed destination of `rule` for `app`, from the URL's captures.
    func destination(of rule: LinkRule, for app: DomainApp, url: AASAURL) -> ResolvedDestination? {
        guard let binding = rule.destination else { return nil }
        let caseSensitive = rule.caseSensitive ?? settings.defaults?.caseSensitive ?? true
        let percentEncoded = rule.percentEncoded ?? settings.defaults?.percentEncoded ?? true
        var captures: [String: String] = [:]
        func take(_ pattern: RulePattern?, _ text: String, isPath: Bool) -> Bool {
            guard let pattern else { return true }
            guard let found = pattern.captures(in: text, isPath: isPath, caseSensitive: caseSensitive, percentEncoded: percentEncoded) else { return false }
            captures.merge(found) { first, _ in first }
            return true
        }
        var fits = take(rule.path, url.path, isPath: true) && take(rule.fragment, url.fragment ?? "", isPath: false)
        if case .items(let items)? = rule.query {
            // Items are split and their names compared exactly as the matcher does (CompiledRule); the value
            // goes to the template raw, which applies the same percent-encoding rule to it.
            var subject = MatchSubject(url)
            let raw = subject.queryItems(MatchSubject.Form(percentEncoded: true, caseSensitive: true))
            let form = MatchSubject.Form(percentEncoded: percentEncoded, caseSensitive: caseSensitive)
            for item in items where fits {
                let name = Array((caseSensitive ? item.name : item.name.lowercased()).utf8)
                let value = raw.first { MatchSubject.transform($0.name, form) == name }.map { String(decoding: $0.value, as: UTF8.self) }
                fits = take(item.pattern, value ?? "", isPath: false)
            }
        }
        guard fits else {
            return .error(DestinationError(
                code: .invalidParam, param: nil,
                detail: "The URL is claimed by the rule's AASA pattern but does not fit its template (a capture such as {id} takes one path segment)."
            ))
        }
        return binding.resolve(captures: captures, destination: app.destinations[binding.type])
    }
}
