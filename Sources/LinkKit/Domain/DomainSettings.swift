/// A link domain's association-file settings.
public struct DomainSettings: Sendable, Hashable {
    /// Lower-case, punycode; `*.example.com` for a wildcard domain.
    public let hostname: String
    /// `applinks.defaults` (`caseSensitive`, `percentEncoded`).
    public let defaults: AASAComponent?
    public let substitutionVariables: [SubstitutionVariable]
    /// App ids listed under `webcredentials` and `appclips`.
    public let webcredentials: [String]
    public let appclips: [String]
    /// Also emit legacy `paths` (and `"apps": []`) for iOS 12 and older.
    public let legacyPaths: Bool
    /// Where browsers go when no app opens the link.
    public let webFallbackURL: String?
    /// Also write the rules into `assetlinks.json` as Android 15+ dynamic rules (docs/ANDROID.md).
    public let androidDynamicRules: Bool

    public init(
        hostname: String, defaults: AASAComponent? = nil, substitutionVariables: [SubstitutionVariable] = [],
        webcredentials: [String] = [], appclips: [String] = [], legacyPaths: Bool = false, webFallbackURL: String? = nil,
        androidDynamicRules: Bool = false
    ) {
        self.hostname = hostname
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
        self.webcredentials = webcredentials
        self.appclips = appclips
        self.legacyPaths = legacyPaths
        self.webFallbackURL = webFallbackURL
        self.androidDynamicRules = androidDynamicRules
    }
}
