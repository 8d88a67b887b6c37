/// What a click on an app link gets on a domain, or under a rule that overrides it (docs/LANDING.md).
enum ClickBehavior: String, Sendable, CaseIterable {
    /// One small HTML page: open in the app, get the app, continue to the website.
    case landing
    /// 302 to the store page or the web fallback.
    case redirect

    /// The value of `key`; a 422 naming the choices for anything else; nil for absent or `null`.
    static func read(_ body: inout JSONObjectReader, _ key: String) -> ClickBehavior? {
        guard let text = body.string(key) else { return nil }
        guard let behavior = ClickBehavior(rawValue: text) else {
            body.errors.add(body.at(key), "\(key) must be \"landing\" or \"redirect\", not '\(text.prefix(100))'.")
            return nil
        }
        return behavior
    }
}
