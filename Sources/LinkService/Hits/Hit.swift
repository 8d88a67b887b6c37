import Foundation
import GeoIP
import LinkKit

/// One logged link hit: a resolve or a click on a link domain.
public struct Hit: Sendable, Equatable {
    public enum Outcome: String, Sendable, CaseIterable {
        case openApp = "open_app"
        case excluded
        case noMatch = "no_match"
        case unknownDomain = "unknown_domain"
        /// A custom-scheme link whose scheme no app of the workspace registered.
        case unknownScheme = "unknown_scheme"
        /// The app opens but the destination could not be built (bad or missing parameter, unknown type).
        case invalidParam = "invalid_param"
    }

    public enum Source: String, Sendable, CaseIterable {
        /// `claim`: a deferred deep link claimed by the app (`POST /v1/deferred/claim`, docs/LANDING.md).
        case resolve, click, claim
    }

    /// What a visitor was served (nil for resolve requests, which serve an app its answer only): the phone's landing
    /// page (open the app, get it, or continue to the website), the desktop page with the link's QR code, a redirect to
    /// the store, the stored link's web page, the link's fallback for the device, or the domain's web fallback; the
    /// preview page a bot gets; the page of an expired link, or of a link with nowhere to go (404); or, for a claim,
    /// the destination the app asked for. `redirect` is what hits recorded before these were told apart say of every
    /// redirect (docs/HITS.md, "What a visitor was served").
    public enum Served: String, Sendable, CaseIterable {
        case landing
        case desktopPage = "desktop_page"
        case store
        case webPage = "web_page"
        case linkFallback = "link_fallback"
        case webFallback = "web_fallback"
        case preview, expired
        case notFound = "not_found"
        case claim, redirect
    }

    /// The visitor's device class (`ClassifiedAgent`, docs/HITS.md "Dimensions"): a bot whenever the hit is one
    /// (`isBot`), else what its `User-Agent` says.
    public enum Device: String, Sendable, CaseIterable {
        case mobile, tablet, desktop, bot, other
    }

    /// Longest path or query kept; longer ones are cut (a hit is for analytics, not replay).
    public static let maxURLPartLength = 1024

    public var time: Date
    /// nil only when no workspace can be named (a click on a host that is not a link domain is not a hit).
    public var workspaceID: UUID?
    public var hostname: String
    public var path: String
    public var query: String?
    public var outcome: Outcome
    public var appID: UUID?
    public var ruleID: UUID?
    public var destinationType: String?
    public var source: Source
    public var platform: DevicePlatform
    public var isBot: Bool
    public var referrerHost: String?
    /// Salted SHA-256 of client IP + user agent, the salt rotating daily; the raw IP is never stored.
    public var visitorHash: String?
    public var served: Served?
    /// The stored link the tap was on (`links.id`, issue 29); nil for a URL only a rule decided.
    public var linkID: UUID?
    /// The tap's campaign (`Campaign.of(query:link:)`: the URL's `utm_*` items, then the link's own campaign); nil
    /// when it has none. Shared, not copied, by the hits of one link.
    public var campaign: Campaign?
    /// The visitor's country (ISO 3166-1 alpha-2) from the client address and the operator's MaxMind DB file
    /// (`--geoip-db`); nil when unknown or without one. The address itself is never kept.
    public var country: String?
    /// Operating system and browser families as uap-core names them ("iOS", "Android", "Mobile Safari", "Chrome
    /// Mobile"); nil when uap-core's regexes know neither (its `Other`) or are not loaded.
    public var os: String?
    public var browser: String?
    /// The device class; nil only for hits spooled by a version that did not record it.
    public var device: Device?
    /// The target and the experiment's variant of a targeted link that decided the hit (docs/LINKS.md, "Targeting and
    /// experiments"); nil: the link's own destination, no variant, or no targeted link.
    public var target: String?
    public var variant: String?

    public var utmSource: String? { campaign?.source }
    public var utmMedium: String? { campaign?.medium }
    public var utmCampaign: String? { campaign?.campaign }
    public var utmTerm: String? { campaign?.term }
    public var utmContent: String? { campaign?.content }

    public init(
        time: Date = Date(), workspaceID: UUID?, hostname: String, path: String, query: String?, outcome: Outcome,
        appID: UUID? = nil, ruleID: UUID? = nil, destinationType: String? = nil, source: Source,
        platform: DevicePlatform, isBot: Bool, referrerHost: String? = nil, visitorHash: String? = nil,
        served: Served? = nil, linkID: UUID? = nil, campaign: Campaign? = nil, country: String? = nil, os: String? = nil,
        browser: String? = nil, device: Device? = nil
    ) {
        self.time = time
        self.workspaceID = workspaceID
        self.hostname = hostname
        self.path = Self.capped(path)
        self.query = query.map(Self.capped)
        self.outcome = outcome
        self.appID = appID
        self.ruleID = ruleID
        self.destinationType = destinationType
        self.source = source
        self.platform = platform
        self.isBot = isBot
        self.referrerHost = referrerHost
        self.visitorHash = visitorHash
        self.served = served
        self.linkID = linkID
        self.campaign = campaign?.isEmpty == true ? nil : campaign
        self.country = country
        self.os = os
        self.browser = browser
        self.device = device
    }
}

extension Hit {
    /// `text` cut to `maxURLPartLength` characters; as it is (no copy) when its bytes already fit.
    static func capped(_ text: String) -> String {
        text.utf8.count <= maxURLPartLength ? text : String(text.prefix(maxURLPartLength))
    }
}

/// Where hits go. Request threads call `record` and never wait on the database.
public protocol HitSink: Sendable {
    /// Accepts one hit; it is then written eventually, or counted as dropped (never silently lost).
    func record(_ hit: consuming Hit)
    /// Hashes visitors for the hits of this sink; nil when it does not count unique visitors.
    var visitorHasher: VisitorHasher? { get }
    /// Names the country of the hits' client addresses; nil when countries are not recorded (no `--geoip-db`).
    var countries: CountryDatabase? { get }
}

extension HitSink {
    /// No unique-visitor counting unless the sink says otherwise.
    public var visitorHasher: VisitorHasher? { nil }
    /// No countries unless the sink says otherwise.
    public var countries: CountryDatabase? { nil }
}
