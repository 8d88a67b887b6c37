import ByteText

/// A domain's rules as Android reads them (docs/ANDROID.md): per rule, the `<data>` path attributes of the
/// generated manifest and, when the domain enables them, the dynamic rules of `assetlinks.json`; and what an
/// Android 15+ device with both decides for a URL.
///
/// An immutable class: every Android resolution of the domain reads it, by one reference.
public final class AndroidAppLinks: Sendable {
    /// One rule as Android sees it.
    public struct Rule: Sendable, Hashable {
        public let position: Int
        public let exclude: Bool
        /// The manifest's path attributes (none for an exclusion: a manifest cannot exclude).
        public let manifest: AndroidPathTranslation?
        /// The dynamic rules it writes.
        public let dynamic: [AndroidDynamicRule]
        /// Where the dynamic rules read differently from the Apple patterns.
        public let dynamicNotes: [String]
        /// Whether it constrains the query or the fragment (which the manifest ignores).
        public let constrainsQueryOrFragment: Bool
    }

    /// Whether the domain serves dynamic rules (`androidDynamicRules`).
    public let dynamicRules: Bool
    /// The Android apps, in `assetlinks.json` order, each with the rules that name it, in rule order.
    public let apps: [(app: DomainApp, rules: [Rule])]

    init(settings: DomainSettings, rules: [LinkRule], apps: [String: DomainApp]) {
        dynamicRules = settings.androidDynamicRules
        let variables = RuleMatcher.variables(settings.substitutionVariables)
        var order: [DomainApp] = []
        var byApp: [String: [Rule]] = [:]
        var translated: [Int: Rule] = [:]
        for (position, linkRule) in rules.enumerated() {
            for id in linkRule.apps {
                guard let app = apps[id], app.platform == .android else { continue }
                if byApp[app.id] == nil { order.append(app) }
                let rule = translated[position] ?? Self.rule(linkRule, position: position, settings: settings, variables: variables)
                translated[position] = rule
                if byApp[app.id]?.last?.position != position { byApp[app.id, default: []].append(rule) }
            }
        }
        self.apps = order.map { ($0, byApp[$0.id] ?? []) }
    }

    private static func rule(_ rule: LinkRule, position: Int, settings: DomainSettings, variables: [String: [String]]) -> Rule {
        let effective = RuleMatcher.effective(rule.component, detailDefaults: nil, fileDefaults: settings.defaults)
        let exclude = effective.exclude ?? false
        let (dynamic, notes) = AndroidDynamicRule.written(effective: effective, position: position, variables: variables)
        let constrains =
            (effective.query.map {
                if case .string("*") = $0 { return false }; return true
            } ?? false)
            || (effective.fragment.map { $0 != "*" } ?? false)
        return Rule(
            position: position, exclude: exclude,
            manifest: exclude ? nil : AndroidPathTranslation(effective: effective, variables: variables),
            dynamic: dynamic, dynamicNotes: notes, constrainsQueryOrFragment: constrains)
    }

    /// The statement's `dynamic_app_link_components` for an app: its rules' entries, in order.
    public func dynamicComponents(of app: DomainApp) -> [AndroidDynamicRule] {
        apps.first { $0.app.id == app.id }?.rules.flatMap(\.dynamic) ?? []
    }

    /// What an Android 15+ device with the generated manifest and the served file decides for `url`: the app
    /// whose decision comes from the earliest rule, its rule position, and whether it opens (false: an exclusion
    /// decided). Nil when no app's filter or rules claim it.
    ///
    /// A URL is in an app's scope when its decoded path matches one of the manifest's path attributes for the app.
    /// With dynamic rules the first entry that matches decides (an exclusion blocks; no entry matching leaves the
    /// link to the browser); without them the manifest alone decides, and the rule reported is the first positive
    /// rule whose attributes match. With `onlyApp`, the other apps' rules are left aside (a custom-scheme link).
    /// With `manifestOnly`, the dynamic rules are left aside too: what Android 14 and older decide.
    public func decide(_ url: AASAURL, onlyApp: String? = nil, manifestOnly: Bool = false) -> (app: Int, position: Int, opens: Bool)? {
        let path = AndroidGlob.decoded(url.path)
        let units = Array(path.utf16)
        var items: [(name: String, value: String)]?
        var best: (app: Int, position: Int, opens: Bool)?
        for (index, entry) in apps.enumerated() where onlyApp == nil || entry.app.id == onlyApp {
            guard let claimed = entry.rules.first(where: { $0.manifest?.matches(utf16: units) == true }) else { continue }
            var decision = (app: index, position: claimed.position, opens: true)
            if dynamicRules && !manifestOnly {
                if items == nil { items = Self.items(url.query) }
                let fragment = AndroidGlob.decoded(url.fragment ?? "")
                let deciding = entry.rules.lazy.flatMap(\.dynamic).first { $0.matches(path: path, items: items!, fragment: fragment) }
                guard let deciding else { continue }
                decision = (index, deciding.position, !deciding.exclude)
            }
            if let current = best,
                current.opens && !decision.opens || (current.opens == decision.opens && current.position <= decision.position)
            {
                continue
            }
            best = decision
        }
        return best
    }

    /// The decoded query items, split as `URLComponents` does (`&`, then the first `=`).
    static func items(_ query: String?) -> [(name: String, value: String)] {
        guard let query else { return [] }
        var items: [(name: String, value: String)] = []
        Array(query.utf8).withUnsafeBufferPointer { bytes in
            QueryString.forEachItem(bytes) { name, value in
                let decode = { (part: UnsafeBufferPointer<UInt8>) in String(decoding: Percent.decoded(part), as: UTF8.self) }
                items.append((decode(name), value.map(decode) ?? ""))
            }
        }
        return items
    }
}
