/// What a URL does on a link domain: which app opens it, through which rule, and where inside the app.
///
/// An immutable class: a resolution travels from the matcher to the answer, the hit and the response writer,
/// and a struct of a rule, an app and a destination was copied (about 20 retains) at each step.
public final class LinkResolution: Sendable, Hashable {
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

    init(
        outcome: Outcome, app: DomainApp?, rule: LinkRule?, position: Int?, detailIndex: Int?, componentIndex: Int?,
        destination: ResolvedDestination?
    ) {
        self.outcome = outcome
        self.app = app
        self.rule = rule
        self.position = position
        self.detailIndex = detailIndex
        self.componentIndex = componentIndex
        self.destination = destination
    }

    /// Equal when every field is.
    public static func == (lhs: LinkResolution, rhs: LinkResolution) -> Bool {
        lhs === rhs
            || (lhs.outcome == rhs.outcome && lhs.app == rhs.app && lhs.rule == rhs.rule && lhs.position == rhs.position
                && lhs.detailIndex == rhs.detailIndex && lhs.componentIndex == rhs.componentIndex && lhs.destination == rhs.destination)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(outcome)
        hasher.combine(app)
        hasher.combine(rule)
        hasher.combine(position)
        hasher.combine(detailIndex)
        hasher.combine(componentIndex)
        hasher.combine(destination)
    }

    /// This resolution with `destination` as where the app opens (a stored link's own destination, where the rule
    /// that decided named another or none): the same app, rule and place in the file.
    public func opening(_ destination: ResolvedDestination?) -> LinkResolution {
        LinkResolution(
            outcome: outcome, app: app, rule: rule, position: position, detailIndex: detailIndex,
            componentIndex: componentIndex, destination: destination)
    }

    static let noMatch = LinkResolution(
        outcome: .noMatch, app: nil, rule: nil, position: nil, detailIndex: nil, componentIndex: nil, destination: nil)
}
