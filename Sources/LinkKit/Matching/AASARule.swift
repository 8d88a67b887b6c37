/// One rule of an AASA file as the matcher sees it: where it is, and its effective settings after the defaults
/// cascade (built-in ← `applinks.defaults` ← `details[].defaults` ← the component; docs/aasa-semantics.md §3, §6).
public struct AASARule: Sendable, Hashable {
    /// Index of the rule's entry in `applinks.details`.
    public let detailIndex: Int
    /// Index in that entry's `components`, or in its `paths` for a legacy rule.
    public let componentIndex: Int
    /// The legacy `paths` string as written (with any `NOT `), or nil for a `components` rule.
    public let legacyPath: String?
    /// The effective settings: every key filled in (`/`, `?`, `#` default to `*`).
    public let effective: AASAComponent

    /// Whether a match blocks the link (`exclude`, or a `NOT ` path).
    public var isExclusion: Bool { effective.exclude ?? false }
}

/// What one app's rules decide for a URL.
public struct AppDecision: Sendable, Hashable {
    /// The outcome for one app.
    public enum Outcome: String, Sendable, Hashable {
        /// A positive rule matched first: the app opens the URL.
        case match
        /// An `exclude` rule (or `NOT ` path) matched first: the app is blocked.
        case exclude
        /// No rule of the app matched.
        case noMatch = "no_match"
    }

    /// The app.
    public let appID: String
    /// The outcome.
    public let outcome: Outcome
    /// The rule that decided, nil for `noMatch`.
    public let rule: AASARule?

    /// Index of the deciding `details` entry.
    public var detailIndex: Int? { rule?.detailIndex }
    /// Index of the deciding component (or legacy path).
    public var componentIndex: Int? { rule?.componentIndex }

    /// Creates a decision (for callers that decide without a matcher, e.g. a URL on another host → `noMatch`).
    /// - Parameters:
    ///   - appID: the app.
    ///   - outcome: the outcome.
    ///   - rule: the deciding rule, nil for `noMatch`.
    public init(appID: String, outcome: Outcome, rule: AASARule?) {
        self.appID = appID
        self.outcome = outcome
        self.rule = rule
    }
}

/// Which app, if any, opens a URL, and why (docs/aasa-semantics.md §3 steps 4–5).
public struct AASAResolution: Sendable, Hashable {
    /// The app that opens the URL (the first listed app of the earliest deciding entry), or nil.
    public let appID: String?
    /// The winning match; or, when no app matches, the first block; or nil when no rule matched at all.
    public let decision: AppDecision?
    /// The decision of every app named in the file, in order of first appearance.
    public let decisions: [AppDecision]

    /// Index of the deciding `details` entry, if any.
    public var detailIndex: Int? { decision?.detailIndex }
    /// Index of the deciding component (or legacy path), if any.
    public var componentIndex: Int? { decision?.componentIndex }
}

/// One step of a trace: a rule that was tried and whether it matched.
public struct RuleEvaluation: Sendable, Hashable {
    /// The rule tried.
    public let rule: AASARule
    /// Whether it matched the URL (the last step of a trace is the deciding one when it did).
    public let matched: Bool
}
