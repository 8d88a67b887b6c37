import Foundation
import LinkKit

/// What a domain's links ask of its association files (`link_apps`, kept by triggers): whether it has links at
/// all, and which apps they open. The files claim, after every rule, the paths no rule decides for one app per
/// platform (`rules(after:apps:)`), so a link created or deleted leaves the files as they are unless that set of
/// apps changes (docs/LINKS.md, "Serving links").
struct LinkSpace: Hashable, Sendable {
    /// The apps links open, sorted (a web page is no app).
    let apps: [UUID]
    /// Whether the domain has any link, to an app or a web page.
    let hasLinks: Bool

    static let none = LinkSpace(apps: [], hasLinks: false)

    /// As an association version's snapshot keeps it: `{"apps": [...], "hasLinks": bool}`.
    var json: JSONValue {
        .object([JSONMember(key: "apps", value: .array(apps.map(JSONValue.uuid))), JSONMember(key: "hasLinks", value: .bool(hasLinks))])
    }

    /// Reads `json`; anything else is no link space.
    init(json: JSONValue?) {
        let apps = json?["apps"]?.arrayValue?.compactMap { $0.stringValue.flatMap(UUID.init(uuidString:)) } ?? []
        self.init(apps: apps, hasLinks: json?["hasLinks"] == .bool(true))
    }

    init(apps: [UUID], hasLinks: Bool) {
        self.apps = apps.sorted { $0.canonicalText < $1.canonicalText }
        self.hasLinks = hasLinks
    }

    /// The path pattern of the link space: every path of one character or more (the root stays the web's).
    static let pattern = "/?*"
    static let comment = "linkd links: paths no rule above decides"

    /// The rule that claims the link space, to follow `rules`: for each platform, the app links open there (at most
    /// one: iOS would open the first of several whatever the link), else the app of that platform that a rule names
    /// beside an app links open (so a link to an iOS app's destination opens its Android twin too). Nil when no
    /// link opens an app.
    /// (As a list of at most one rule, to append to the domain's.)
    func rules(after rules: [LinkRule], apps: [DomainApp]) -> [LinkRule] {
        guard !self.apps.isEmpty else { return [] }
        let claimed = claimedApps(rules: rules, apps: Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
        guard !claimed.isEmpty else { return [] }
        return [
            LinkRule(
                id: "", apps: claimed.map(\.id), path: .raw(Self.pattern), query: nil, fragment: nil, exclude: nil,
                caseSensitive: nil, percentEncoded: nil, comment: Self.comment, destination: nil)
        ]
    }

    /// The app the link space opens on each platform (see `rules(after:apps:)`), iOS first.
    func claimedApps(rules: [LinkRule], apps byID: [String: DomainApp]) -> [DomainApp] {
        let own = apps.compactMap { byID[$0.canonicalText] }
        var claimed: [DomainApp] = []
        for platform in [AppPlatform.ios, .android] {
            if let app = own.first(where: { $0.platform == platform }) {
                claimed.append(app)
                continue
            }
            let twin = rules.lazy.filter { $0.exclude != true && $0.apps.contains(where: { id in own.contains { $0.id == id } }) }
                .compactMap { $0.apps.lazy.compactMap { byID[$0] }.first { $0.platform == platform } }.first
            if let twin { claimed.append(twin) }
        }
        return claimed
    }
}
