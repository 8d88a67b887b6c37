import LinkKit
import UserAgents

/// What a `User-Agent` says, once: linkd's own classification (`UserAgent`: platform, bot, in-app browser, which
/// decide what a click gets) and the hit's dimensions read with uap-core's regexes (operating system and browser
/// families) with the device class derived from both. `UserAgentCache` keeps one per agent seen again.
struct ClassifiedAgent: Sendable {
    let userAgent: UserAgent
    /// uap-core's operating system family; nil when unknown (uap-core's `Other`) or not parsed.
    let os: String?
    /// uap-core's browser family; nil when unknown or not parsed.
    let browser: String?
    /// The class of the agent's device; `.bot` exactly when `userAgent.isBot` (a hit may be a bot for other
    /// reasons too: `Hit.device` then says so).
    let device: Hit.Device

    /// Classifies `header`; `parsed` is what uap-core's regexes read from it (nil: not parsed).
    init(_ header: String?, parsed: ParsedUserAgent?) {
        userAgent = UserAgent(header)
        os = parsed.flatMap { $0.os.isKnown ? $0.os.family : nil }
        browser = parsed.flatMap { $0.browser.isKnown ? $0.browser.family : nil }
        device = Self.device(of: userAgent, parsed: parsed, header: header ?? "")
    }

    /// Operating systems of phones that linkd's own markers do not name (iOS and Android are `UserAgent.platform`).
    static let phoneSystems: Set<String> = ["Windows Phone", "BlackBerry OS", "BlackBerry Tablet OS", "KaiOS", "Symbian OS", "Firefox OS",
                                            "Tizen", "Sailfish", "webOS", "Bada", "MeeGo", "Maemo"]
    /// uap-core device families of tablets that do not say `iPad` (its own families for Kindles and the like).
    static let tabletMarkers = ["iPad", "Kindle", "Tablet", "Nexus 7", "Nexus 9", "Nexus 10", "Galaxy Tab"]

    /// The device class (docs/HITS.md, "Dimensions"), in order:
    /// - `bot`: linkd's `UserAgent.isBot` (crawlers and link-preview fetchers), as linkd counted bots before;
    /// - `tablet`: an iPad (linkd's marker or uap-core's device), a uap-core device family naming a tablet
    ///   (`tabletMarkers`), a BlackBerry tablet, or Android without the `Mobile` token (Android phones' browsers
    ///   and web views write it, tablets' do not);
    /// - `mobile`: an iOS or Android platform (linkd's markers, CFNetwork apps included), another phone system
    ///   (`phoneSystems`), or a `Mobi` token (MDN's advice for spotting a mobile browser);
    /// - `desktop`: linkd's desktop platform (Windows, Macintosh, X11, Linux, ChromeOS markers);
    /// - `other`: anything else (no header, HTTP libraries, TVs and consoles uap-core does not place).
    static func device(of agent: UserAgent, parsed: ParsedUserAgent?, header: String) -> Hit.Device {
        if agent.isBot { return .bot }
        let family = parsed?.device.family ?? ""
        let system = parsed?.os.family ?? ""
        if agent.isIPad || tabletMarkers.contains(where: { family.contains($0) }) || system == "BlackBerry Tablet OS"
            || (agent.platform == .android && !header.contains("Mobile")) {
            return .tablet
        }
        if agent.platform == .ios || agent.platform == .android || phoneSystems.contains(system) || header.contains("Mobi") {
            return .mobile
        }
        return agent.platform == .desktop ? .desktop : .other
    }
}
