extension CompiledDomain {
    /// The most one URL may cost to match against a domain's rules, per byte of it (`scanCost`). With 8 KB of
    /// path that is some 8 million byte comparisons for a click however hostile the rules (docs/aasa-semantics.md
    /// §4). Rules written as a literal prefix and a last `*` (`/products/*`) weigh nothing, a literal suffix after
    /// a `*` (`*.pdf`, `/a/*/b`) one.
    public static let maximumScanWeight = 1_024

    /// The most one URL can cost to match against the rules, per byte of it (the heaviest set of rules whose
    /// literal prefixes start one path), and when that passes `maximumScanWeight`, the position of the rule past
    /// which it does.
    public var scanCost: (weight: Int, crossing: Int?) { ios.rules.scanCost(limit: Self.maximumScanWeight) }
}
