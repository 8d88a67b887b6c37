/// An `apple-app-site-association` file: the services a domain associates with apps (docs/aasa-semantics.md §2).
///
/// Decode one leniently with `AASAFile(json:)` or `AASAFile.decode(_:)` (unknown keys and wrong types are ignored, as
/// iOS ignores them; `AASALinter` reports them), encode it canonically with `encoded()`.
public struct AASAFile: Sendable, Hashable {
    /// Universal links: the only section that opens apps from URLs.
    public var applinks: AppLinks?
    /// Shared web credentials (password autofill).
    public var webcredentials: ServiceApps?
    /// App Clips.
    public var appclips: ServiceApps?
    /// Handoff.
    public var activitycontinuation: ServiceApps?

    /// Creates a file.
    /// - Parameters:
    ///   - applinks: universal links, if any.
    ///   - webcredentials: web credential apps, if any.
    ///   - appclips: App Clip apps, if any.
    ///   - activitycontinuation: Handoff apps, if any.
    public init(
        applinks: AppLinks? = nil, webcredentials: ServiceApps? = nil,
        appclips: ServiceApps? = nil, activitycontinuation: ServiceApps? = nil
    ) {
        self.applinks = applinks
        self.webcredentials = webcredentials
        self.appclips = appclips
        self.activitycontinuation = activitycontinuation
    }
}

/// The `{"apps": [appID, ...]}` shape of `webcredentials`, `appclips` and `activitycontinuation`.
public struct ServiceApps: Sendable, Hashable {
    /// App IDs (`<team ID>.<bundle ID>`).
    public var apps: [String]

    /// Creates a service section.
    /// - Parameter apps: app IDs.
    public init(apps: [String]) { self.apps = apps }
}

/// The `applinks` section.
public struct AppLinks: Sendable, Hashable {
    /// The legacy `"apps": []` key (iOS ≤ 12 requires it, empty); nil when absent.
    public var apps: [String]?
    /// Domain-level defaults (`applinks.defaults`), applied to every component that does not override them.
    public var defaults: AASAComponent?
    /// `applinks.substitutionVariables`, in file order.
    public var substitutionVariables: [SubstitutionVariable]
    /// The `details` entries, in file order (the order decides which app wins).
    public var details: [AppLinksDetail]

    /// Creates an `applinks` section.
    /// - Parameters:
    ///   - apps: the legacy `apps` array, or nil to omit it.
    ///   - defaults: domain-level defaults.
    ///   - substitutionVariables: variable declarations.
    ///   - details: the details entries.
    public init(
        apps: [String]? = nil, defaults: AASAComponent? = nil,
        substitutionVariables: [SubstitutionVariable] = [], details: [AppLinksDetail] = []
    ) {
        self.apps = apps
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
        self.details = details
    }
}

/// One `applinks.substitutionVariables` declaration: `$(name)` matches any one of `values`.
public struct SubstitutionVariable: Sendable, Hashable {
    /// The variable name (case-sensitive, without `$(` `)`).
    public var name: String
    /// The values; each may contain `?` and `*`.
    public var values: [String]

    /// Creates a declaration.
    /// - Parameters:
    ///   - name: the variable name.
    ///   - values: the values.
    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// One `applinks.details` entry: apps and their ordered rules.
public struct AppLinksDetail: Sendable, Hashable {
    /// The apps this entry applies to (from `appIDs`, then `appID`), in file order.
    public var appIDs: [String]
    /// Modern rules; when present (even empty) iOS 13+ ignores `paths`.
    public var components: [AASAComponent]?
    /// Legacy path patterns; a `NOT ` prefix (with the space) marks an exclusion.
    public var paths: [String]?
    /// App-level defaults (`details[].defaults`).
    public var defaults: AASAComponent?

    /// Creates a details entry.
    /// - Parameters:
    ///   - appIDs: the apps.
    ///   - components: modern rules, or nil.
    ///   - paths: legacy paths, or nil.
    ///   - defaults: app-level defaults, or nil.
    public init(appIDs: [String], components: [AASAComponent]? = nil, paths: [String]? = nil, defaults: AASAComponent? = nil) {
        self.appIDs = appIDs
        self.components = components
        self.paths = paths
        self.defaults = defaults
    }
}
