import Foundation
import LinkKit

/// A domain's writable settings as the API accepts and stores them (`domains.settings`).
struct DomainSettingsRecord: Sendable, Equatable {
    var caseSensitive: Bool?
    var percentEncoded: Bool?
    var substitutionVariables: [(name: String, values: [String])] = []
    var webcredentials: [UUID] = []
    var appclips: [UUID] = []
    var legacyPaths = false
    var webFallbackURL: String?
    /// Carry the link's path and query over to the web fallback (`https://fallback/<path>?<query>`).
    var carryPathToFallback = false
    /// Write the rules into `assetlinks.json` as Android 15+ dynamic rules (docs/ANDROID.md).
    var androidDynamicRules = false
    /// What a click on an app link gets (docs/LANDING.md): the landing page (the default for new domains) or
    /// the store and fallback redirects (domains registered before the landing page, `migrations/0012`).
    var clickBehavior = ClickBehavior.landing
    /// How long a landing page's click token can be claimed, in seconds (`deferredTTL`, default 24 h).
    var deferredTTL = DomainSettingsRecord.defaultDeferredTTL
    /// iOS: "Get the app" puts the token's claim link on the pasteboard (opt-in, said on the page).
    var deferredClipboard = false
    /// How many characters a generated link slug has (`linkSlugLength`, default 7).
    var linkSlugLength = DomainSettingsRecord.defaultLinkSlugLength

    static let defaultLinkSlugLength = 7
    /// `linkSlugLength` bounds.
    static let linkSlugLengthRange = 4...32
    static let defaultDeferredTTL = 86_400
    /// `deferredTTL` bounds: one minute to thirty days.
    static let deferredTTLRange = 60...2_592_000

    init() {}

    /// Reads the settings members of `body` (create: all optional; patch: only those present change).
    mutating func read(_ body: inout JSONObjectReader) {
        let errors = body.errors
        if var defaults = body.object("defaults") {
            if defaults.has("caseSensitive") { caseSensitive = defaults.bool("caseSensitive") }
            if defaults.has("percentEncoded") { percentEncoded = defaults.bool("percentEncoded") }
            defaults.finish()
        } else if body.has("defaults") {
            caseSensitive = nil
            percentEncoded = nil
        }
        if body.has("substitutionVariables") {
            substitutionVariables = []
            if var variables = body.object("substitutionVariables") {
                for name in variables.keys() {
                    let at = variables.at(name)
                    if name.isEmpty || name.contains(where: { "$()".contains($0) }) {
                        errors.add(at, "A substitution variable name cannot be empty or contain '$', '(' or ')'.")
                    }
                    if BuiltInVariables.names.contains(name) {
                        errors.add(at, "'\(name)' is a built-in variable; choose another name.")
                    }
                    let values = variables.strings(name, required: true, maxCount: 1000, limit: .pattern) ?? []
                    for (index, value) in values.enumerated() where value.contains("$(") {
                        errors.add(JSONPointer.appending(at, index), "A substitution value cannot refer to another variable.")
                    }
                    if values.isEmpty { errors.add(at, "A substitution variable needs at least one value.") }
                    substitutionVariables.append((name, values))
                }
                variables.finish()
            }
        }
        if body.has("webcredentials") { webcredentials = Self.appIDs(&body, "webcredentials") }
        if body.has("appclips") { appclips = Self.appIDs(&body, "appclips") }
        DomainFields.legacyPaths.apply(&body, to: &legacyPaths, cleared: false)
        DomainFields.webFallbackURL.apply(&body, to: &webFallbackURL)
        DomainFields.carryPathToFallback.apply(&body, to: &carryPathToFallback, cleared: false)
        DomainFields.androidDynamicRules.apply(&body, to: &androidDynamicRules, cleared: false)
        DomainFields.clickBehavior.apply(&body, to: &clickBehavior, cleared: .landing)
        DomainFields.deferredTTL.apply(&body, to: &deferredTTL, cleared: Self.defaultDeferredTTL)
        DomainFields.deferredClipboard.apply(&body, to: &deferredClipboard, cleared: false)
        DomainFields.linkSlugLength.apply(&body, to: &linkSlugLength, cleared: Self.defaultLinkSlugLength)
    }

    private static func appIDs(_ body: inout JSONObjectReader, _ key: String) -> [UUID] {
        let errors = body.errors
        var ids: [UUID] = []
        for (index, text) in (body.strings(key, maxCount: 100) ?? []).enumerated() {
            guard let id = UUID(uuidString: text) else {
                errors.add(JSONPointer.appending(body.at(key), index), "'\(text)' is not an app id.")
                continue
            }
            ids.append(id)
        }
        return ids
    }

    /// The stored and returned form.
    var json: JSONValue {
        var defaults: [JSONMember] = []
        if let caseSensitive { defaults.append(JSONMember(key: "caseSensitive", value: .bool(caseSensitive))) }
        if let percentEncoded { defaults.append(JSONMember(key: "percentEncoded", value: .bool(percentEncoded))) }
        return .object([
            "defaults": .object(defaults),
            "substitutionVariables": .object(
                substitutionVariables.map { JSONMember(key: $0.name, value: .array($0.values.map(JSONValue.string))) }),
            "webcredentials": .array(webcredentials.map(JSONValue.uuid)),
            "appclips": .array(appclips.map(JSONValue.uuid)),
            "legacyPaths": .bool(legacyPaths),
            "webFallbackUrl": .optional(webFallbackURL),
            "carryPathToFallback": .bool(carryPathToFallback),
            "androidDynamicRules": .bool(androidDynamicRules),
            "clickBehavior": .string(clickBehavior.rawValue),
            "deferredTTL": .number(String(deferredTTL)),
            "deferredClipboard": .bool(deferredClipboard),
            "linkSlugLength": .number(String(linkSlugLength)),
        ])
    }

    /// Reads the stored form back (trusted: it was validated when written).
    init(stored: JSONValue) {
        let errors = FieldErrors()
        var body = JSONObjectReader(stored, at: "", errors: errors)
        read(&body)
    }

    func resolved(hostname: String) -> DomainSettings {
        let defaults =
            caseSensitive == nil && percentEncoded == nil
            ? nil : AASAComponent(caseSensitive: caseSensitive, percentEncoded: percentEncoded)
        return DomainSettings(
            hostname: hostname, defaults: defaults,
            substitutionVariables: substitutionVariables.map { SubstitutionVariable(name: $0.name, values: $0.values) },
            webcredentials: webcredentials.map { $0.canonicalText }, appclips: appclips.map { $0.canonicalText },
            legacyPaths: legacyPaths, webFallbackURL: webFallbackURL, androidDynamicRules: androidDynamicRules
        )
    }

    static func == (lhs: DomainSettingsRecord, rhs: DomainSettingsRecord) -> Bool { lhs.json == rhs.json }
}
