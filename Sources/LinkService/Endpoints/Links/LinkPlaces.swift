import Foundation
import LinkKit
import Postgres

/// Where links may stand, for one create and for every item of a batch alike: a domain's links open one app a
/// platform (iOS opens the first app the file names for the link space, whatever the link), and no rule of the
/// domain may decide a link's URL otherwise than the link (`LinkPlacement`, over the rules the catalog serves), and
/// no `url` or fallback of a link may lead back to it (`LinkLoops`).
struct LinkPlaces {
    let catalog: Catalog
    private var loops: LinkLoops
    /// The app each domain's links open, by platform: those stored (`link_apps`), then those of earlier items.
    private var opened: [UUID: [AppPlatform: UUID]] = [:]
    private let platforms: [UUID: AppPlatform]

    /// - Parameters:
    ///   - spaces: the link spaces of the domains the links are on (`LinkStore.spaces`).
    ///   - platforms: the platform of every app the links may name.
    init(catalog: Catalog, spaces: [UUID: LinkSpace], platforms: [UUID: AppPlatform]) {
        self.catalog = catalog
        self.platforms = platforms
        loops = LinkLoops(catalog: catalog)
        for (domain, space) in spaces {
            for app in space.apps {
                if let platform = platforms[app], opened[domain]?[platform] == nil { opened[domain, default: [:]][platform] = app }
            }
        }
    }

    /// Why `link` cannot stand where it is, as a pointer under the link and a sentence; nil when it can (its app is
    /// then the one its domain's links open on its platform, and where it leads is known, for the links after it).
    /// - Parameter replacing: the app the link opened before an edit (its own count in `link_apps` does not bind it).
    /// - Parameter connection: where the stored links a URL leads to are read.
    mutating func problem(_ link: Link, replacing: UUID? = nil, on connection: Connection) throws -> (member: String, detail: String)? {
        let app = link.appID.flatMap { id in platforms[id].map { (id: id, platform: $0) } }
        if let app, let other = opened[link.domainID]?[app.platform], other != app.id, other != replacing {
            return ("app", """
                The links on \(link.hostname) open the \(app.platform.rawValue) app \(other.canonicalText); a domain's links open one app \
                a platform, since iOS and Android open the first app the file names for the link space. Use another domain for this app's links.
                """)
        }
        if let entry = catalog.entry(exactly: link.hostname) {
            let placement = LinkPlacement(slug: link.slug, app: app.map { ($0.id.canonicalText, $0.platform) },
                                          destinationType: link.destination?["type"]?.stringValue)
            if let conflict = placement.conflict(host: Hostname.servingHost(of: link.hostname), ruleCount: entry.ruleIDs.count,
                                                 resolve: { entry.resolve($0, platform: $1) }) {
                return ("slug", """
                    \(link.shortLink) is decided by rule \(conflict.position) (\(entry.ruleIDs[conflict.position].canonicalText)), which \
                    \(conflict.what): the link could never open what it points at. Choose another slug, or change the rule.
                    """)
            }
        }
        if let loop = try loops.problem(link, on: connection) { return loop }
        if let app { opened[link.domainID, default: [:]][app.platform] = app.id }
        return nil
    }
}
