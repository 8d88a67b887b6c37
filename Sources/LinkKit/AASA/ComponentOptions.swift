/// The keys of a `components` entry beside its patterns: one value for an `AASAComponent` and for the `LinkRule`
/// that writes it, which copies them as they are. Both read them as their own members (`ComponentOptionsCarrier`).
public struct ComponentOptions: Sendable, Hashable {
    /// `exclude`: a match blocks the link instead of opening the app.
    public var exclude: Bool?
    /// `caseSensitive`: whether patterns match case-sensitively.
    public var caseSensitive: Bool?
    /// `percentEncoded`: whether the URL is compared as encoded (false: decoded first).
    public var percentEncoded: Bool?
    /// `comment`: ignored by the system.
    public var comment: String?

    /// Creates the keys; an absent one is nil.
    public init(exclude: Bool? = nil, caseSensitive: Bool? = nil, percentEncoded: Bool? = nil, comment: String? = nil) {
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
        self.comment = comment
    }
}

/// A value that carries `ComponentOptions` (an `AASAComponent`, a `LinkRule`) and reads them as its own members:
/// `rule.exclude` is `rule.options.exclude`.
@dynamicMemberLookup
public protocol ComponentOptionsCarrier {
    var options: ComponentOptions { get }
}

extension ComponentOptionsCarrier {
    public subscript<Value>(dynamicMember key: KeyPath<ComponentOptions, Value>) -> Value {
        options[keyPath: key]
    }
}
