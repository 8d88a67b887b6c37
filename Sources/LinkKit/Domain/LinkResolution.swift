/// What a URL does on a link domain: which app opens it, through which rule, and where inside the app.
public struct LinkResolution: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        /// An app opens the URL.
        case openApp = "open_app"
        /// An exclusion rule blocked every app that would have opened it: the browser opens it.
        case excluded
        /// No rule claims it: the browser opens it.
        case noMatch = "no_match"
    }

    public let outcome: Outcome
    /// The app that opens the URL, or whose exclusion decided.
    public let app: DomainApp?
    /// The deciding rule and its position in the domain's ordered list.
    public let rule: LinkRule?
    public let position: Int?
    /// The `details` and `components` indices in the generated association file.
    public let detailIndex: Int?
    public let componentIndex: Int?
    /// For `openApp`: the typed destination, an explicit error, or nil when the rule names none.
    public let destination: ResolvedDestination?

    static let noMatch = LinkResolution(outcome: .noMatch, app: nil, rule: nil, position: nil, detailIndex: nil, componentIndex: nil, destination: nil)
}
