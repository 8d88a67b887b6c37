import Foundation
import HTTPServer
import LinkKit
import Postgres

/// Where links may stand, for one create and for every item of a batch alike: a domain's links open one app a
/// platform (iOS opens the first app the file names for the link space, whatever the link), and no rule of the
/// domain may decide a link's URL otherwise than the link (`LinkPlacement`, over the rules the catalog serves), and
/// no `url` or fallback of a link may lead back to it (`LinkLoops`). A link never changes unannounced what an app
/// opens (docs/LINKS.md, "The link space"): a link to a web page stands only on a domain whose links open no app
/// (and the first link to an app only on a domain without links to web pages), and a link that makes the link space
/// open other apps, moving URLs a rule keeps from them (`LinkSpaceMoves`), is refused unless the write
/// acknowledges the moves (`acknowledgeMoves`).
struct LinkPlaces {
    /// Why a link cannot stand where it is: the member at fault and a sentence; for moves, one sentence each.
    struct Refusal {
        let member: String
        let detail: String
        var moves: [String] = []

        /// The problem of the link at `pointer` (`""` for a request's own link, `/3` for an item): 422 at the member,
        /// or 409 listing the moves at `/app`.
        func problem(under pointer: String) -> Problem {
            guard !moves.isEmpty else { return ServiceError.validation([.init(pointer: pointer + "/" + member, detail: detail)]).problem }
            return Problem(
                type: LinkPlaces.movesType, title: "The link would change what apps open", status: 409, detail: detail,
                errors: moves.map { Problem.FieldError(pointer: pointer + "/" + member, detail: $0) })
        }
    }

    /// The problem type of a refusal for moves.
    static let movesType = Problem.Types.base + "link-space-moves"
    /// The query parameter every door reads the acknowledgement from.
    static let acknowledgeMoves = QueryParameter(
        "acknowledgeMoves", Schema.enumeration(["true", "false", "1", "0"]),
        """
        `true` creates or changes the link even when it makes the domain's link space open other apps and so moves URLs \
        a rule keeps from them (an exclusion Android cannot keep, say); without it such a write is a 409 listing the \
        moves (docs/LINKS.md, "The link space").
        """)
    /// Whether `request` acknowledges the moves (`acknowledgeMoves`, false when absent).
    /// - Throws: `ServiceError.badRequest` for a value that is no boolean.
    static func acknowledged(_ request: Request) throws -> Bool {
        try request.flag(acknowledgeMoves.name) ?? false
    }

    /// How many links to web pages a refusal names.
    static let namedWebLinks = 3

    let catalog: Catalog
    private var loops: LinkLoops
    /// The app each domain's links open, by platform: those stored (`link_apps`), then those of earlier items.
    private var opened: [UUID: [AppPlatform: UUID]] = [:]
    /// Every app each domain's links open: those stored, then those of earlier items.
    private var spaceApps: [UUID: Set<UUID>] = [:]
    /// How many links to web pages each domain holds, and the slugs of earlier items' (a batch).
    private var webLinks: [UUID: Int]
    private var batchWebSlugs: [UUID: [String]] = [:]
    /// The oldest stored links to web pages of each domain a refusal named (read once a batch).
    private var storedWebSlugs: [UUID: [String]] = [:]
    private let platforms: [UUID: AppPlatform]
    private let acknowledged: Bool
    /// The moves already worked out, by domain and the apps of its link space.
    private var checked: [String: [String]] = [:]

    /// Reads the link spaces of `domains` (`LinkStore.spaces`) and how many links to web pages they hold.
    /// - Parameters:
    ///   - platforms: the platform of every app the links may name.
    ///   - acknowledgeMoves: whether the write acknowledges what the links move (`Self.acknowledgeMoves`).
    init(catalog: Catalog, domains: [UUID], platforms: [UUID: AppPlatform], acknowledgeMoves: Bool, on connection: Connection) throws {
        self.catalog = catalog
        self.platforms = platforms
        acknowledged = acknowledgeMoves
        loops = LinkLoops(catalog: catalog)
        webLinks = try LinkStore.webLinkCounts(domains: domains, on: connection)
        for (domain, space) in try LinkStore.spaces(domains: domains, on: connection) {
            spaceApps[domain] = Set(space.apps)
            for app in space.apps {
                if let platform = platforms[app], opened[domain]?[platform] == nil { opened[domain, default: [:]][platform] = app }
            }
        }
    }

    /// Why `link` cannot stand where it is; nil when it can (its app is then the one its domain's links open on its
    /// platform, and where it leads is known, for the links after it).
    /// - Parameter previous: the link before an edit, when it stays on its domain (its own place does not bind it).
    /// - Parameter connection: where the stored links a URL leads to are read.
    mutating func problem(_ link: Link, previous: Link? = nil, on connection: Connection) throws -> Refusal? {
        let replacing = previous?.appID
        let app = link.appID.flatMap { id in platforms[id].map { (id: id, platform: $0) } }
        if let app, let other = opened[link.domainID]?[app.platform], other != app.id, other != replacing {
            return Refusal(
                member: "app",
                detail: """
                    The links on \(link.hostname) open the \(app.platform.rawValue) app \(other.canonicalText); a domain's links open one app \
                    a platform, since iOS and Android open the first app the file names for the link space. Use another domain for this app's links.
                    """)
        }
        let entry = catalog.entry(exactly: link.hostname)
        let remaining = try remainingSpaceApps(link, replacing: replacing, on: connection)
        if let refusal = try webProblem(link, previous: previous, remaining: remaining, entry: entry, on: connection) { return refusal }
        if let entry {
            let placement = LinkPlacement(
                slug: link.slug, app: app.map { ($0.id.canonicalText, $0.platform) },
                destinationType: link.destination?["type"]?.stringValue)
            if let conflict = placement.conflict(
                host: Hostname.servingHost(of: link.hostname), ruleCount: entry.ruleIDs.count,
                resolve: { entry.resolve($0, platform: $1) })
            {
                return Refusal(
                    member: "slug",
                    detail: """
                        \(link.shortLink) is decided by rule \(conflict.position) (\(entry.ruleIDs[conflict.position].canonicalText)), which \
                        \(conflict.what): the link could never open what it points at. Choose another slug, or change the rule.
                        """)
            }
            if let app, !acknowledged {
                var apps = remaining
                apps.insert(app.id)
                let moves = self.moves(entry, apps: apps)
                if !moves.isEmpty {
                    return Refusal(
                        member: "app",
                        detail: """
                            This link would make \(link.hostname)'s files claim every path no rule decides for the apps its links \
                            open, and so move \(moves.count == 1 ? "a URL" : "URLs") a rule keeps from them (each in errors). Change \
                            the rules, or send the write again with ?acknowledgeMoves=true to accept the moves.
                            """, moves: moves)
                }
            }
        }
        if let loop = try loops.problem(link, on: connection) { return Refusal(member: loop.member, detail: loop.detail) }
        if let app {
            opened[link.domainID, default: [:]][app.platform] = app.id
            spaceApps[link.domainID, default: []].insert(app.id)
        } else {
            batchWebSlugs[link.domainID, default: []].append(link.slug)
        }
        return nil
    }

    /// The apps `link`'s domain's links open besides `link`: those stored and of earlier items, less the app the link
    /// opened before an edit (`replacing`) when it now opens another and no other link of the domain opens that one.
    private func remainingSpaceApps(_ link: Link, replacing: UUID?, on connection: Connection) throws -> Set<UUID> {
        var apps = spaceApps[link.domainID] ?? []
        if let replacing, replacing != link.appID,
            try !LinkStore.opens(app: replacing, domain: link.domainID, excluding: link.id, on: connection)
        {
            apps.remove(replacing)
        }
        return apps
    }

    /// A link to a web page where the domain's links open an app (a phone with the app would open the app, not the
    /// page), or the first link to an app on a domain holding links to web pages (they would then open the app).
    /// - Parameter remaining: the apps the domain's links open besides this link (`remainingSpaceApps`).
    private mutating func webProblem(
        _ link: Link, previous: Link?, remaining apps: Set<UUID>, entry: CatalogEntry?, on connection: Connection
    ) throws -> Refusal? {
        let named = { (id: UUID) in entry?.compiled.apps.first { $0.id == id.canonicalText }.map(LinkSpaceMoves.name) ?? id.canonicalText }
        guard link.appID != nil else {
            guard !apps.isEmpty else { return nil }
            // The apps the link space opens: the links' own, and their twins on the other platform.
            var names = apps.sorted { $0.canonicalText < $1.canonicalText }.map(named)
            if let entry {
                let byID = Dictionary(entry.compiled.apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                let claimed = LinkSpace(apps: Array(apps), hasLinks: true).claimedApps(
                    rules: Array(entry.compiled.rules.prefix(entry.ruleIDs.count)), apps: byID)
                if !claimed.isEmpty { names = claimed.map(LinkSpaceMoves.name) }
            }
            return Refusal(
                member: "url",
                detail: """
                    \(link.shortLink) would lead to a web page, but the links on \(link.hostname) open \(names.joined(separator: " and ")): the domain's files \
                    claim every path no rule decides for \(names.count == 1 ? "that app" : "those apps"), so a phone with the app would open the \
                    app, not the page. Put links to web pages on a domain whose links open no app.
                    """)
        }
        let stored = (webLinks[link.domainID] ?? 0) - (previous != nil && previous?.appID == nil ? 1 : 0)
        let batch = batchWebSlugs[link.domainID] ?? []
        guard apps.isEmpty, stored + batch.count > 0 else { return nil }
        let oldest =
            try storedWebSlugs[link.domainID]
            ?? LinkStore.webLinkSlugs(domain: link.domainID, excluding: previous?.id, limit: Self.namedWebLinks, on: connection)
        storedWebSlugs[link.domainID] = oldest
        let slugs = oldest + batch
        let count = stored + batch.count
        let listed =
            slugs.prefix(Self.namedWebLinks).map { "\(link.hostname)/\($0)" }.joined(separator: ", ")
            + (count > Self.namedWebLinks ? ", …" : "")
        return Refusal(
            member: "app",
            detail: """
                \(link.hostname) holds \(count) link\(count == 1 ? "" : "s") to web pages (\(listed)): a first link to an app makes the \
                domain's files claim every path no rule decides for the app, so on a phone with the app \(count == 1 ? "that link" : "those links") \
                would open the app, not the page. Move them to another domain (or delete them) first, or use another domain for links to apps.
                """)
    }

    /// The moves (as sentences) of `entry`'s domain once its links open `apps`: none when the link space stays.
    private mutating func moves(_ entry: CatalogEntry, apps: Set<UUID>) -> [String] {
        let key = entry.domainID.canonicalText + apps.map(\.canonicalText).sorted().joined(separator: ",")
        if let known = checked[key] { return known }
        let rules = Array(entry.compiled.rules.prefix(entry.ruleIDs.count))
        let space = LinkSpace(apps: Array(apps), hasLinks: true).rules(after: rules, apps: entry.compiled.apps)
        var sentences: [String] = []
        if (space.first?.apps ?? []) != entry.linkApps {
            let after = CompiledDomain(settings: entry.compiled.settings, apps: entry.compiled.apps, rules: rules + space)
            sentences = LinkSpaceMoves(
                from: entry.compiled, to: after, ruleCount: rules.count, host: Hostname.servingHost(of: entry.hostname)
            )
            .moves.map(\.sentence)
        }
        checked[key] = sentences
        return sentences
    }
}
