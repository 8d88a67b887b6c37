import Foundation
import HTTPServer
import LinkKit
import Observability
import Postgres

/// The one place a URL becomes an answer: which app opens it, which rule decided, the typed destination
/// and the fallbacks. Resolve requests, link clicks and custom-scheme links (through the rules of the
/// scheme's app on its deciding domain, docs/LINKS.md) all come through here, over the catalog compiled
/// from the very rules the AASA file is generated from. The URL is split once (`AASAURL`) and that one
/// parsed view goes to the matcher, the answer, its JSON and the hit.
struct Resolver: Sendable {
    let catalog: Catalog
    /// Answers of URLs asked again, with their JSON (`ResolveCache`).
    let cache: ResolveCache
    /// The stored links of the domains; nil: links are not served.
    let links: LinkCache?

    init(catalog: Catalog, cacheSize: Int, stripes: StripeAssignment, links: LinkCache? = nil) {
        self.catalog = catalog
        cache = ResolveCache(capacity: cacheSize, stripes: stripes)
        self.links = links
    }

    /// Why a URL on a link domain is no universal link at all, whatever the rules say (the answer's `reason`).
    enum Refusal: String, Sendable {
        /// Universal links are `https` URLs: an `http` link opens in the browser.
        case notHTTPS = "not_https"
        /// The URL carries user information (`user:password@`): linkd never claims such a link (docs/DESIGN.md).
        case userInfo = "user_info"
        /// A custom scheme only an app of the other platform registered: a phone hands a scheme URL to an app of its
        /// own platform, so none opens it (docs/LINKS.md).
        case schemeOfOtherPlatform = "scheme_of_other_platform"
    }

    /// Schemes whose URLs are no links at all (script, inline data, local files): refused as bad input.
    static let refusedSchemes: Set<String> = ["javascript", "data", "file"]

    /// One resolved URL. A class: the answer goes to the hit and to the response writer without copying its
    /// URL parts.
    final class Answer: Sendable {
        /// The URL as asked (nil for a click: its parts came from the request, `parsed` has them).
        let url: String?
        let parsed: AASAURL
        /// The URL as asked, or for a click written out from its parts (the landing page's link).
        var link: String { url ?? parsed.text }
        /// nil: no link domain of the caller governs the URL's host (or no app of the workspace owns its custom
        /// scheme); for a custom-scheme link, the domain that decided.
        let entry: CatalogEntry?
        let resolution: LinkResolution?
        let platform: AppPlatform
        /// Set when a link domain governs the host but the URL cannot be a universal link: then no rule was asked.
        let refusal: Refusal?
        /// The deciding app's id (the catalog's ids are canonical UUID text), parsed once for the hits of a kept answer.
        let appID: UUID?
        /// The landing and preview pages of clicks on this link, rendered on first use (`ClickHandler`), one per
        /// `LandingPageSlot`.
        let pages = OnceSlots<LandingPage.Template>(count: LandingPageSlot.allCases.count)
        /// The stored link at the URL's path, when its domain has one there (docs/LINKS.md, "Serving links").
        let storedLink: ServedLink?
        /// Whether `storedLink` still opens what it points at (not expired, not beyond its click limit).
        let linkIsLive: Bool
        /// Whether a link that may be at the path could not be read (the database away): the answer is then not kept.
        let linkUnread: Bool
        /// The stored link's campaign as its taps record it, made once per answer (kept answers serve many taps).
        let linkCampaign: Hit.Campaign?
        /// Whether the stored link is targeted (docs/LINKS.md, "Targeting and experiments"), and the target and variant
        /// that decided this answer (nil: the link's own destination, no variant).
        let targeted: Bool
        let target: String?
        let variant: String?
        /// The answers of the targeted link's choices (`ServedTargeting` slots), made on first use (`Resolver.targeted`).
        let choices: OnceSlots<ResolveCache.CachedAnswer>?
        /// A targeted link's answer: the rule's resolution before the link decided, and the platform whose app the
        /// link's apps were matched for (a choice decides again from them).
        let ruleResolution: LinkResolution?
        let linkPlatform: AppPlatform

        init(
            url: String?, parsed: AASAURL, entry: CatalogEntry?, resolution: LinkResolution?, platform: AppPlatform,
            refusal: Refusal? = nil, storedLink: ServedLink? = nil, linkIsLive: Bool = true, linkUnread: Bool = false,
            targeted: Bool = false, target: String? = nil, variant: String? = nil, ruleResolution: LinkResolution? = nil,
            linkPlatform: AppPlatform? = nil
        ) {
            self.ruleResolution = storedLink?.targeting != nil ? ruleResolution : nil
            self.linkPlatform = linkPlatform ?? platform
            self.targeted = targeted || storedLink?.targeting != nil
            self.target = target
            self.variant = variant
            choices = storedLink?.targeting.map { OnceSlots(count: $0.slotCount) }
            self.url = url
            self.parsed = parsed
            self.entry = entry
            self.resolution = resolution
            self.platform = platform
            self.refusal = refusal
            self.storedLink = storedLink
            self.linkIsLive = linkIsLive
            self.linkUnread = linkUnread
            linkCampaign = storedLink.map { link in
                Hit.Campaign(
                    source: link.campaign.source, medium: link.campaign.medium, campaign: link.campaign.campaign,
                    term: link.campaign.term, content: link.campaign.content)
            }
            appID = resolution?.app.flatMap { UUID.canonical($0.id) ?? UUID(uuidString: $0.id) }
        }

        /// Until when this answer may be served again (`ResolveCache`): a link's expiry; never again for a link with a
        /// click limit, whose every tap counts, or when the link could not be read; nil: while the catalog stands.
        var reusableUntil: Date? {
            if linkUnread { return .distantPast }
            guard let link = storedLink, linkIsLive else { return nil }
            return link.maxClicks != nil ? .distantPast : link.expiresAt
        }

        var outcome: Hit.Outcome {
            if refusal != nil { return .noMatch }
            guard let resolution else { return parsed.isWeb ? .unknownDomain : .unknownScheme }
            switch resolution.outcome {
            case .openApp:
                if case .error? = resolution.destination { return .invalidParam }
                return .openApp
            case .excluded: return .excluded
            case .noMatch: return .noMatch
            }
        }

        /// Where a browser goes when no app opens the link (only configured URLs, never the link's own host): a stored
        /// link's web page or desktop fallback, else the domain's web fallback.
        var webFallback: String? {
            if let link = storedLink, let page = (linkIsLive ? link.webURL : nil) ?? link.fallbacks.desktop { return page }
            return entry.flatMap { Self.domainWebFallback(of: $0, for: parsed) }
        }

        /// The web fallback of `entry`'s domain for `parsed`: its `webFallbackUrl`, with the path and query carried
        /// when the domain says so (docs/LANDING.md); nil without one.
        static func domainWebFallback(of entry: CatalogEntry, for parsed: AASAURL) -> String? {
            guard let base = entry.settings.webFallbackURL else { return nil }
            guard entry.settings.carryPathToFallback else { return base }
            return FallbackURL.carrying(path: parsed.path.isEmpty ? "/" : parsed.path, query: parsed.query, to: base)
        }

        /// What the URLs that open the destination are made of, when an app opens the link: the host of the universal
        /// link (the domain, a wildcard's root) and the app, whose custom scheme makes the scheme link when it has one
        /// (docs/LINKS.md). `ResolveJSON` writes both from the parsed URL, without making them as text.
        var links: (universalHost: String, app: DomainApp)? {
            guard let entry, let resolution, resolution.outcome == .openApp, let app = resolution.app else { return nil }
            return (parsed.isWeb ? parsed.host : Hostname.servingHost(of: entry.hostname), app)
        }

        /// The store page of the app the rule names for `platform` (first listed app of that platform).
        func storeURL(for platform: AppPlatform) -> String? {
            if let app = resolution?.app, app.platform == platform, let url = app.storeURL { return url }
            guard let entry else { return nil }
            let ruleApps = resolution?.rule?.apps ?? []
            // The first such app the rule names, else the first such app (one pass, no intermediate arrays).
            var first: String?
            for app in entry.compiled.apps where app.platform == platform {
                guard let url = app.storeURL else { continue }
                if ruleApps.contains(app.id) { return url }
                if first == nil { first = url }
            }
            return first
        }
    }

    /// The answer for `url` (with its JSON as `GET /v1/resolve` sends it), kept from an earlier ask while the
    /// catalog has not changed since.
    /// - Throws: `LinkKitError` when `url` is not an absolute URL, or is a `javascript:`, `data:` or `file:` URL.
    func resolve(_ url: String, platform: AppPlatform, workspace: UUID?) throws -> ResolveCache.CachedAnswer {
        try kept(.init(link: .text(url), platform: platform, workspace: workspace)) {
            try answer(url, platform: platform, workspace: workspace)
        }
    }

    /// The answer for a click: `path` (raw) and `query` requested on `host`, taken from the request as they are
    /// (no URL string is written to be split again), kept as resolve answers are, with the same JSON: a landing
    /// page's click token stores it for the claim.
    /// - Throws: `PostgresError` `.mustNotWait` only (`LinkCache.link`).
    func resolveClick(host: String, path: String, query: String?, platform: AppPlatform) throws -> ResolveCache.CachedAnswer {
        try kept(.init(link: .request(host: host, path: path, query: query), platform: platform, workspace: nil)) {
            try answer(AASAURL(https: host, path: path, query: query), url: nil, platform: platform, workspace: nil)
        }
    }

    /// The answer kept for `key` while the catalog stands and the answer allows (`Answer.reusableUntil`), else
    /// `compute`'s with its JSON.
    private func kept(_ key: ResolveCache.Key, _ compute: () throws -> Answer) rethrows -> ResolveCache.CachedAnswer {
        let generation = catalog.generation // before the catalog is read
        func computed() throws -> (Answer, [UInt8]) {
            let made = try compute()
            var json: [UInt8] = []
            json.reserveCapacity(1024)
            ResolveJSON.write(made, into: &json)
            return (made, json)
        }
        let kept = try cache.answer(for: key, generation: generation, otherwise: computed)
        guard let until = kept.answer.reusableUntil, Date() >= until else { return kept }
        let (answer, json) = try computed()
        return ResolveCache.CachedAnswer(answer: answer, json: json)
    }

    /// Resolves `url` for `platform` among the domains of `workspace` (nil: any workspace, for clicks).
    /// - Throws: as `resolve(_:platform:workspace:)`.
    func answer(_ url: String, platform: AppPlatform, workspace: UUID?) throws -> Answer {
        let parsed = try AASAURL(url)
        guard !Self.refusedSchemes.contains(parsed.scheme) else {
            throw LinkKitError(.invalidURL, "'\(url.prefix(200))' is a \(parsed.scheme): URL, which is no link.")
        }
        return try answer(parsed, url: url, platform: platform, workspace: workspace)
    }

    private func answer(_ parsed: AASAURL, url: String?, platform: AppPlatform, workspace: UUID?) throws(PostgresError) -> Answer {
        guard parsed.isWeb else {
            // A custom-scheme link: the scheme's app of the platform alone decides, through its deciding domain's rules.
            guard let owner = catalog.owner(ofScheme: parsed.scheme, platform: platform, workspace: workspace) else {
                // Never another platform's app: the phone would not hand it the URL.
                let other = catalog.owner(ofScheme: parsed.scheme, platform: platform == .ios ? .android : .ios, workspace: workspace)
                return Answer(
                    url: url, parsed: parsed, entry: other?.entry, resolution: nil, platform: platform,
                    refusal: other == nil ? nil : .schemeOfOtherPlatform)
            }
            let universal = parsed.universal(on: Hostname.servingHost(of: owner.entry.hostname))
            return try linked(
                Answer(
                    url: url, parsed: parsed, entry: owner.entry, resolution: owner.entry.resolve(universal, for: owner.app),
                    platform: platform), platform: owner.app.platform)
        }
        guard let entry = catalog.entry(governing: parsed.host), workspace == nil || entry.workspaceID == workspace else {
            return Answer(url: url, parsed: parsed, entry: nil, resolution: nil, platform: platform)
        }
        if let refusal = parsed.scheme != "https" ? Refusal.notHTTPS : parsed.hasUserInfo ? .userInfo : nil {
            return Answer(url: url, parsed: parsed, entry: entry, resolution: nil, platform: platform, refusal: refusal)
        }
        return try linked(
            Answer(url: url, parsed: parsed, entry: entry, resolution: entry.resolve(parsed, platform: platform), platform: platform),
            platform: platform)
    }

    /// `answer` with the stored link at its path, when its domain has one there: the link's destination where the
    /// app that opens the URL is the app the link opens on `platform` (`CatalogEntry.linkApp`), an explicit
    /// `link_expired` error instead once the link is past its expiry or click limit; the rule's answer otherwise
    /// (a rule made after the link, deciding otherwise, wins, as it does on the device).
    private func linked(_ answer: Answer, platform: AppPlatform) throws(PostgresError) -> Answer {
        guard let links, let entry = answer.entry, entry.links.hasLinks, let resolution = answer.resolution,
            let slug = LinkSlug.candidate(path: answer.parsed.path)
        else { return answer }
        let link: ServedLink
        switch try links.link(slug, domain: entry.domainID) {
        case .found(let found): link = found
        case .absent: return answer
        case .unavailable:
            return Answer(
                url: answer.url, parsed: answer.parsed, entry: entry, resolution: resolution, platform: answer.platform,
                linkUnread: true)
        }
        // (This node's taps are asked only of a link with a click limit: they are counted under a lock.)
        let live = link.isLive(at: Date(), taps: link.maxClicks == nil ? 0 : links.taps.taps(of: link.id).all)
        return opening(link, live: live, answer: answer, entry: entry, resolution: resolution, platform: platform)
    }

    /// The answer of a targeted link's choice `slot` (`ServedTargeting`) beside `kept`, the link's own answer: made
    /// once per kept answer and slot, with its JSON.
    func targeted(_ kept: ResolveCache.CachedAnswer, slot: Int) -> ResolveCache.CachedAnswer {
        let answer = kept.answer
        guard let targeting = answer.storedLink?.targeting, let choices = answer.choices, let entry = answer.entry,
            let resolution = answer.resolution, slot < targeting.slotCount
        else { return kept }
        return choices.object(slot) {
            let choice = targeting.choice(at: slot)
            // The rule's answer before the link decided: the link's app opens the URL, whichever destination it now opens.
            let made = opening(
                choice.link, live: answer.linkIsLive, answer: answer, entry: entry, resolution: answer.ruleResolution ?? resolution,
                platform: answer.linkPlatform, target: choice.target, variant: choice.variant)
            var json: [UInt8] = []
            json.reserveCapacity(1024)
            ResolveJSON.write(made, into: &json)
            return ResolveCache.CachedAnswer(answer: made, json: json)
        }
    }

    /// `answer` opening the stored `link` (live or not) where its app is the one that opens the URL.
    private func opening(
        _ link: ServedLink, live: Bool, answer: Answer, entry: CatalogEntry, resolution: LinkResolution, platform: AppPlatform,
        target: String? = nil, variant: String? = nil
    ) -> Answer {
        var decided = resolution
        if let appID = link.appID, let type = link.destinationType, resolution.outcome == .openApp, let app = resolution.app,
            entry.linkApp(appID, type: type, platform: platform) === app
        {
            decided = resolution.opening(
                live
                    ? link.destination(in: app)
                    : .error(DestinationError(code: .linkExpired, param: nil, detail: "The link \(link.slug) has expired.")))
        }
        return Answer(
            url: answer.url, parsed: answer.parsed, entry: entry, resolution: decided, platform: answer.platform,
            storedLink: link, linkIsLive: live, targeted: target != nil || variant != nil || answer.targeted,
            target: target, variant: variant, ruleResolution: resolution, linkPlatform: platform)
    }
}
