import ByteText
import Foundation
import HTTPServer
import LinkKit

/// Any other `GET` on a registered link domain is a click (the app was not installed, the link was opened in an
/// in-app browser, typed, or opened on Android without verified App Links), logged as a hit with what it got.
///
/// On a `landing` domain (or under a rule that says so) a click on an app link from a phone gets the landing
/// page (`LandingPage`: open in the app, get the app with a click token for deferred deep linking, continue to
/// the website); a desktop gets the web fallback, or the page with the link's QR code when there is none; bots
/// get the preview page. On a `redirect` domain, and for links no app opens, a click gets a 302 to the store
/// page or the web fallback, and link-preview fetchers get the preview page. Only configured URLs are ever
/// targets or buttons (store pages, the web fallback, the app's scheme and package), so a link domain is never
/// an open redirect (docs/LANDING.md).
struct ClickHandler: Sendable {
    let resolver: Resolver
    let hits: any HitSink
    let agents: UserAgentCache
    /// Deferred deep links; nil: landing pages carry no token.
    let tokens: ClickTokens?

    /// Each click looks its link up once: the request's host, path and query go to the resolver as they are
    /// (`Resolver.resolveClick`), whose kept answer, when there is one, also says whether a link domain governs
    /// the host; the `User-Agent` is classified once, for the platform, the hit and the redirect.
    func handle(_ request: Request) throws -> Response {
        guard let host = request.host, !request.path.hasPrefix("/v1/"), !request.path.hasPrefix("/.well-known/") else {
            throw ServiceError.notFound("'\(request.path.prefix(200))'")
        }
        guard request.method == .GET || request.method == .HEAD else {
            guard resolver.catalog.entry(governing: host) != nil else { throw ServiceError.notFound("'\(request.path.prefix(200))'") }
            throw Problem.methodNotAllowed.with(detail: "Links answer GET and HEAD only.")
        }
        let classified = agents.classify(request)
        let agent = classified.userAgent
        let platform: AppPlatform = agent.platform == .android ? .android : .ios
        var resolved = try resolver.resolveClick(host: host, path: request.path, query: request.rawQuery, platform: platform)
        var country: String?
        var newVisitor: String?
        if let targeting = resolved.answer.storedLink?.targeting {
            (resolved, country, newVisitor) = targeted(resolved, targeting, request: request, agent: classified)
        }
        let answer = resolved.answer
        guard let entry = answer.entry else { throw ServiceError.notFound("'\(request.path.prefix(200))'") }
        // Looked up once, for the hit and a click token (the install claiming it is counted under it).
        if country == nil { country = hits.countries?.country(of: request.remoteAddress) }
        var (response, served) = respond(
            answer, json: resolved.json, agent: agent, request: request, origin: (country, classified.os))
        if let newVisitor { response?.headers.add("Set-Cookie", Self.visitorCookie + "=" + newVisitor + Self.visitorCookieAttributes) }
        var hit = Hit(resolved: answer, source: .click, request: request, agent: classified, workspace: entry.workspaceID)
        hit.served = served
        hit.country = country
        // A tap spends a click limit, and counts for `link.clicked`, when analytics count it as a person's: not a bot, a
        // HEAD or an HTTP library.
        if let link = answer.storedLink, !hit.isBot, let taps = resolver.links?.taps {
            if answer.linkIsLive { taps.tapped(link.id, limited: link.maxClicks != nil) }
            taps.clicked(link.id, hostname: answer.parsed.host, slug: link.slug, workspace: entry.workspaceID)
        }
        hits.record(hit, from: request)
        guard let response else {
            // Nowhere to send the browser: a person gets a page saying so, an API client the problem.
            if request.acceptsHTML { return notFoundPage(answer, agent: agent) }
            throw ServiceError.notFound("No web fallback is configured for this link; the page")
        }
        return response
    }

    /// The first-party cookie that keeps a visitor's variant on link domains, and its attributes: two years, HttpOnly,
    /// SameSite=Lax (sent on the top-level navigation a tap is), Secure.
    static let visitorCookie = "linkd_v"
    static let visitorCookieAttributes = "; Path=/; Max-Age=63072000; HttpOnly; SameSite=Lax; Secure"

    /// A targeted link's answer for this visitor (docs/LINKS.md, "Targeting and experiments"): the first target whose
    /// conditions hold, and its variant for the visitor's cookie (a new key, returned to be set, when the choice
    /// has an experiment and the request has none). Also the country looked up, for the hit.
    func targeted(
        _ resolved: ResolveCache.CachedAnswer, _ targeting: ServedTargeting, request: Request,
        agent: ClassifiedAgent
    ) -> (ResolveCache.CachedAnswer, String?, String?) {
        var visitor = TargetVisitor(
            platform: agent.userAgent.platform, osVersion: agent.osVersion, device: agent.device, browser: agent.browser)
        var country: String?
        if targeting.asksCountry, let code = hits.countries?.country(of: request.remoteAddress) {
            country = code
            visitor.country = ServedTargeting.packed(code)
        }
        if targeting.asksLanguage, let header = request.headers["Accept-Language"] {
            visitor.language = TargetVisitor.firstLanguage(header)
        }
        if targeting.asksReferrer, let referrer = request.headers["Referer"] { visitor.referrerHost = Self.host(of: referrer) }
        if targeting.asksUTM { visitor.campaign = Hit.Campaign.of(query: resolved.answer.parsed.query, link: nil) }
        var choice = targeting.choose(visitor, key: nil as Substring?)
        var newKey: String?
        if !targeting.groups[choice.group].variants.isEmpty {
            let key: Substring
            if let kept = request.headers["Cookie"].flatMap(Self.visitorKey) {
                key = kept
            } else {
                var generator = SystemRandomNumberGenerator()
                let made = String(generator.next() as UInt64, radix: 16) + String(generator.next() as UInt64, radix: 16)
                newKey = made
                key = made[...]
            }
            choice = targeting.choose(visitor, key: key)
        }
        return (resolver.targeted(resolved, slot: targeting.slot(choice)), country, newKey)
    }

    /// The visitor key in a `Cookie` header (`linkd_v=…`).
    static func visitorKey(_ header: String) -> Substring? {
        var rest = header[...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: ";") ?? rest.endIndex
            let pair = rest[..<end].drop { $0 == " " }
            rest = end == rest.endIndex ? rest[end...] : rest[rest.index(after: end)...]
            guard pair.hasPrefix("linkd_v=") else { continue }
            let value = pair.dropFirst(8)
            return value.isEmpty || value.utf8.count > 64 ? nil : value
        }
        return nil
    }

    /// The host of a `Referer` value, without allocating: what follows `//` up to `/`, `:`, `?` or `#`.
    static func host(of referrer: String) -> Substring? {
        guard let start = referrer.range(of: "//") else { return nil }
        let rest = referrer[start.upperBound...]
        let host = rest.prefix { $0 != "/" && $0 != ":" && $0 != "?" && $0 != "#" }
        return host.isEmpty ? nil : host
    }

    /// The 404 page a browser gets for a link with nowhere to go (no app opens it or no store to send the phone
    /// to, and no web fallback): the domain's name, and the store buttons of its apps, the phone's own store
    /// (both stores on a desktop). Rendered per request (no token, no kept template: such clicks are rare).
    func notFoundPage(_ answer: Resolver.Answer, agent: UserAgent) -> Response {
        let host = answer.parsed.host
        var content = LandingPage.Content(link: "https://" + host + "/", preview: LinkPreview(title: host))
        content.preview.description = "There is no page at this address."
        switch agent.platform {
        case .ios: content.storeLink = answer.storeURL(for: .ios)
        case .android: content.storeLink = answer.storeURL(for: .android)
        case .desktop, .other:
            content.storeLink = answer.storeURL(for: .ios) ?? answer.storeURL(for: .android)
            content.playLink = content.storeLink == answer.storeURL(for: .ios) ? answer.storeURL(for: .android) : nil
        }
        return Self.page(
            LandingPage.render(content), policy: content.policy, cache: "no-store", status: 404,
            vary: "User-Agent, Accept")
    }

    /// The answer to a click and what it got; a nil response is a 404 (nowhere to send the browser). `origin` is the
    /// click's country and OS family, which a click token keeps.
    func respond(
        _ answer: Resolver.Answer, json: [UInt8], agent: UserAgent, request: Request, origin: (country: String?, os: String?) = (nil, nil)
    ) -> (Response?, Hit.Served?) {
        if let link = answer.storedLink, !answer.linkIsLive {
            // Past its expiry or click limit: the link's fallback for the device, else the web fallback (the link's
            // desktop fallback, else the domain's), else a page that says so (410).
            if let fallback = fallback(of: link, agent: agent) ?? answer.webFallback {
                return (Self.redirect(fallback), served(redirectTo: fallback, answer, agent: agent))
            }
            return (expiredPage(answer), .expired)
        }
        let opensApp = answer.resolution?.outcome == .openApp
        guard let entry = answer.entry, opensApp, behavior(answer, entry) == .landing else {
            if agent.isLinkPreview { return (previewPage(answer), .preview) }
            let target = target(answer, agent: agent)
            return (target.map(Self.redirect), target.map { served(redirectTo: $0, answer, agent: agent) } ?? .notFound)
        }
        if agent.isBot || request.method == .HEAD { return (previewPage(answer), .preview) }
        switch agent.platform {
        case .ios, .android:
            return (
                landingPage(
                    answer, json: json, entry: entry, android: agent.platform == .android,
                    inApp: agent.isInAppBrowser, origin: origin), .landing
            )
        case .desktop, .other:
            if let web = answer.webFallback { return (Self.redirect(web), served(redirectTo: web, answer, agent: agent)) }
            var content = pageContent(answer)
            content.qrSVG = QRCode(answer.link)?.svg(size: 240)
            content.storeLink = answer.storeURL(for: .ios) ?? answer.storeURL(for: .android)
            let page = answer.pages.object(LandingPageSlot.desktop.rawValue) {
                LandingPage.Template(tokenized: false, policy: content.policy) { _ in LandingPage.render(content) }
            }
            return (Self.page(page.bytes, policy: page.policy, cache: "no-store"), .desktopPage)
        }
    }

    /// What a redirect to `target` serves, for analytics: a store page of the link's apps, the stored link's web page,
    /// its fallback for the device, or the web fallback (the domain's, or the link's desktop fallback standing in for it).
    func served(redirectTo target: String, _ answer: Resolver.Answer, agent: UserAgent) -> Hit.Served {
        if target == answer.storeURL(for: .ios) || target == answer.storeURL(for: .android) { return .store }
        if let link = answer.storedLink {
            if answer.linkIsLive, target == link.webURL { return .webPage }
            if target == fallback(of: link, agent: agent) { return .linkFallback }
        }
        return .webFallback
    }

    /// A stored link's fallback for the visitor's device (FDL's `ifl`, `ipfl`, `afl`, `ofl`).
    func fallback(of link: ServedLink, agent: UserAgent) -> String? {
        switch agent.platform {
        case .ios: (agent.isIPad ? link.fallbacks.ipad : nil) ?? link.fallbacks.ios
        case .android: link.fallbacks.android
        case .desktop, .other: link.fallbacks.desktop
        }
    }

    /// The page of a stored link past its expiry or click limit with no fallback and no web fallback: 410, the
    /// link's preview, no way on.
    func expiredPage(_ answer: Resolver.Answer) -> Response {
        var content = pageContent(answer)
        content.preview.description = "This link has expired."
        return Self.page(LandingPage.render(content), policy: content.policy, cache: "no-store", status: 410)
    }

    /// The rule's override, else the domain's setting.
    func behavior(_ answer: Resolver.Answer, _ entry: CatalogEntry) -> ClickBehavior {
        answer.resolution?.position.flatMap { entry.clicks[$0]?.behavior } ?? entry.settings.clickBehavior
    }

    /// The destination type's preview metadata with the rule's overrides; the type's title, else the host, as title.
    func preview(_ answer: Resolver.Answer) -> LinkPreview {
        var preview = LinkPreview()
        if let resolution = answer.resolution, let app = resolution.app, let type = resolution.rule?.destination?.type {
            preview = app.previews[type] ?? LinkPreview(title: app.titles[type])
        }
        if let entry = answer.entry, let position = answer.resolution?.position {
            preview = preview.overridden(by: entry.clicks[position]?.preview)
        }
        if let link = answer.storedLink { preview = preview.overridden(by: link.preview) }
        if preview.title == nil { preview.title = answer.entry.map { _ in answer.parsed.host } }
        return preview
    }

    /// The page of a phone's click on an app link, with a click token where the page can hand it over: the Play
    /// Store link's `referrer` on Android, the pasteboard on iOS when the domain opts in (`deferredClipboard`).
    /// The page is rendered once per answer and variant (`LandingPage.Template`, kept with the answer).
    func landingPage(
        _ answer: Resolver.Answer, json: [UInt8], entry: CatalogEntry, android: Bool, inApp: Bool,
        origin: (country: String?, os: String?) = (nil, nil)
    ) -> Response {
        let settings = entry.settings
        // A link that skips the store has no store link to carry a token.
        let tokenized = tokens != nil && (android || settings.deferredClipboard) && answer.storedLink?.skipStore != true
        let template = answer.pages.object(LandingPageSlot.phone(android: android, inApp: inApp).rawValue) {
            // The policy of the page with a token: the pasteboard script comes with the token's claim link.
            LandingPage.Template(
                tokenized: tokenized, policy: content(answer, android: android, inApp: inApp, token: tokenized ? "" : nil).policy,
                stem: tokenized
                    ? ClickTokens.Stem(
                        workspace: entry.workspaceID, domain: entry.domainID, url: answer.link, platform: android ? "android" : "ios",
                        answer: json) : nil
            ) { token in
                LandingPage.render(content(answer, android: android, inApp: inApp, token: token))
            }
        }
        let token = template.stem.flatMap { tokens?.issue($0, country: origin.country, os: origin.os, ttl: settings.deferredTTL) }
        guard token != nil || !tokenized else { // no room for a token: this page goes out without one
            let page = content(answer, android: android, inApp: inApp, token: nil)
            return Self.page(LandingPage.render(page), policy: page.policy, cache: "no-store")
        }
        return Self.page(template.page(token: token), policy: template.policy, cache: "no-store")
    }

    /// What the landing page of `answer` shows a phone. A stored link's fallback for the platform is the website
    /// to continue to, beside the store page and its token; with `skipStore` there is no store page, no banner and
    /// no token (docs/LANDING.md).
    func content(_ answer: Resolver.Answer, android: Bool, inApp: Bool, token: String?) -> LandingPage.Content {
        var content = pageContent(answer)
        let link = answer.storedLink
        let skipStore = link?.skipStore == true
        content.webLink = (android ? link?.fallbacks.android : link?.fallbacks.ios) ?? answer.webFallback
        let path = answer.parsed.path.hasPrefix("/") ? answer.parsed.path.dropFirst() : answer.parsed.path[...]
        let query = answer.parsed.query.map { "?" + $0 } ?? ""
        if android {
            content.inAppBrowser = inApp ? "Chrome" : nil
            if !skipStore, var store = answer.storeURL(for: .android) {
                if let token {
                    let referrer = Percent.encoded(ClickHandler.referrerPrefix + token, keeping: Percent.isUnreserved)
                    store += (store.contains("?") ? "&" : "?") + "referrer=" + referrer
                }
                content.storeLink = store
            }
            if let app = answer.resolution?.app, app.platform == .android {
                content.openLink = intent(answer, app: app, path: path, query: query, fallback: content.storeLink ?? content.webLink)
            }
        } else {
            content.inAppBrowser = inApp ? "Safari" : nil
            content.storeLink = skipStore ? nil : answer.storeURL(for: .ios)
            content.appStoreID = content.storeLink.flatMap(Self.appStoreID)
            if let app = answer.resolution?.app, app.platform == .ios, let scheme = app.customScheme {
                content.openLink = scheme + "://" + path + query
            }
            if let token, content.storeLink != nil {
                content.claimLink = "https://" + answer.parsed.host + ClickHandler.claimPath + token
            }
        }
        return content
    }

    /// The Chrome intent URL that opens `app` (an Android app) at the clicked link: its custom scheme when it has
    /// one and the clicked domain is the one its scheme's links follow (so the scheme URL opens the same place),
    /// else the https link itself; always its package, and `fallback` where Chrome goes without the app.
    func intent(_ answer: Resolver.Answer, app: DomainApp, path: Substring, query: String, fallback: String?) -> String {
        var intent = "intent://"
        if let scheme = app.customScheme, let appID = answer.appID,
            resolver.catalog.owner(ofApp: appID)?.entry.domainID == answer.entry?.domainID
        {
            intent += path + query + "#Intent;scheme=" + scheme
        } else {
            intent += answer.parsed.host + "/" + path + query + "#Intent;scheme=https"
        }
        intent += ";package=" + app.identifier
        if let fallback { intent += ";S.browser_fallback_url=" + Percent.encoded(fallback, keeping: Percent.isUnreserved) }
        return intent + ";end"
    }

    /// Where the pasteboard's claim link points: `https://<domain>/_linkd/claim/<token>`.
    static let claimPath = "/_linkd/claim/"
    /// The Play Store `referrer` value before the token: `linkd_token=<token>` (percent-encoded in the link).
    static let referrerPrefix = "linkd_token="

    /// The numeric id of an `https://apps.apple.com/app/id…` page.
    static func appStoreID(_ store: String) -> String? {
        guard let range = store.range(of: "/id", options: .backwards) else { return nil }
        let id = store[range.upperBound...]
        return !id.isEmpty && id.utf8.allSatisfy({ (48...57).contains($0) }) ? String(id) : nil
    }

    /// iOS: the App Store page of the app that would open the link, else the web fallback; Android: the Play
    /// Store page, else the web fallback; everything else: the web fallback. A stored link's fallback for the
    /// device stands in for the web fallback, after the store page; a link that skips the store goes to it (else the
    /// web fallback) and never to the store, and so does a link to a web page that has one.
    func target(_ answer: Resolver.Answer, agent: UserAgent) -> String? {
        let link = answer.storedLink
        let linkFallback = link.flatMap { fallback(of: $0, agent: agent) }
        if let link, link.skipStore || (link.appID == nil && linkFallback != nil) { return linkFallback ?? answer.webFallback }
        let opensApp = answer.resolution?.outcome == .openApp
        switch agent.platform {
        case .ios where opensApp: return answer.storeURL(for: .ios) ?? linkFallback ?? answer.webFallback
        case .android where opensApp: return answer.storeURL(for: .android) ?? linkFallback ?? answer.webFallback
        default: return linkFallback ?? answer.webFallback
        }
    }

    /// What every page of `answer` shows: the preview, and the app the link opens with its icon.
    func pageContent(_ answer: Resolver.Answer) -> LandingPage.Content {
        var content = LandingPage.Content(link: answer.link, preview: preview(answer))
        content.appName = answer.resolution?.app?.name
        content.appIcon = answer.resolution?.app?.iconURL
        return content
    }

    /// The page for link-preview fetchers and crawlers: title, description and image as `og:`/`twitter:` tags.
    func previewPage(_ answer: Resolver.Answer) -> Response {
        let page = answer.pages.object(LandingPageSlot.preview.rawValue) {
            LandingPage.Template(tokenized: false, policy: LandingPage.policies.plain) { _ in
                LandingPage.preview(preview(answer), link: answer.link)
            }
        }
        return Self.page(page.bytes, policy: page.policy, cache: "public, max-age=300")
    }

    static func redirect(_ target: String) -> Response {
        var headers = HTTPHeaders()
        headers.add("Location", target)
        headers.add("Cache-Control", "no-store")
        headers.add("Content-Type", "text/plain; charset=utf-8")
        return Response(status: 302, headers: headers, body: Array("Redirecting to \(target)\n".utf8))
    }

    static func page(_ html: [UInt8], policy: String, cache: String, status: Int = 200, vary: String = "User-Agent") -> Response {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Cache-Control", cache)
        headers.add("Vary", vary)
        headers.add("Content-Security-Policy", policy)
        headers.add("X-Content-Type-Options", "nosniff")
        headers.add("Referrer-Policy", "no-referrer")
        return Response(status: status, headers: headers, body: html)
    }
}
