import LinkKit
import UserAgents

/// What a `User-Agent` says, once: linkd's own classification (`UserAgent`: platform, bot, in-app browser, which
/// decide what a click gets) and the hit's dimensions read with uap-core's regexes (operating system and browser
/// families), with the device class derived from both. `UserAgentCache` keeps one per agent seen again.
struct ClassifiedAgent: Sendable {
    let userAgent: UserAgent
    /// uap-core's operating system family; nil when unknown (uap-core's `Other`) or not parsed.
    let os: String?
    /// uap-core's browser family; nil when unknown or not parsed.
    let browser: String?
    /// uap-core's operating system version (`major.minor.patch`), for targets' version ranges; nil when unknown.
    let osVersion: LinkTargeting.OSVersion?
    /// The class of the agent's device; `.bot` exactly when `userAgent.isBot` (a hit may be a bot for other
    /// reasons too: `Hit.device` then says so).
    let device: Hit.Device

    /// Classifies `header`, reading its operating system and browser with `parser` when given (the application's
    /// is loaded without uap-core's device section: the class needs no device model).
    init(_ header: String?, parser: UserAgentParser?) {
        userAgent = UserAgent(header)
        let parsed = header.flatMap { header in parser?.parse(header) }
        os = parsed.flatMap { $0.os.isKnown ? $0.os.family : nil }
        browser = parsed.flatMap { $0.browser.isKnown ? $0.browser.family : nil }
        osVersion = parsed.flatMap { parsed in
            parsed.os.major.flatMap(Int32.init).map {
                LinkTargeting.OSVersion($0, parsed.os.minor.flatMap(Int32.init) ?? 0, parsed.os.patch.flatMap(Int32.init) ?? 0)
            }
        }
        device = Self.device(of: userAgent, os: os, header: header ?? "")
    }

    /// Operating systems of phones that linkd's own markers do not name (iOS and Android are `UserAgent.platform`).
    static let phoneSystems: Set<String> = [
        "Windows Phone", "BlackBerry OS", "KaiOS", "Symbian OS", "Firefox OS", "Tizen", "Sailfish",
        "webOS", "Bada", "MeeGo", "Maemo",
    ]
    /// Tokens of tablets that do not say `iPad`: Firefox on Android tablets (`Android 13; Tablet;`), Kindles.
    static let tabletTokens = ["Tablet", "Kindle", "Silk/"]

    /// The device class (docs/HITS.md, "Dimensions"), in order:
    /// - `bot`: linkd's `UserAgent.isBot` (crawlers and link-preview fetchers), as linkd counted bots before;
    /// - `tablet`: an iPad (linkd's marker), a tablet token (`tabletTokens`), uap-core's `BlackBerry Tablet OS`, or
    ///   Android without the `Mobile` token (Android phones' browsers and web views write it, tablets' do not);
    /// - `mobile`: linkd's iOS or Android platform (CFNetwork apps included), another phone system (`phoneSystems`),
    ///   or a `Mobi` token (MDN's advice for spotting a mobile browser);
    /// - `desktop`: linkd's desktop platform (Windows, Macintosh, X11, Linux, ChromeOS markers);
    /// - `other`: anything else (no header, HTTP libraries, TVs and consoles).
    static func device(of agent: UserAgent, os: String?, header: String) -> Hit.Device {
        if agent.isBot { return .bot }
        if agent.isIPad || tabletTokens.contains(where: { header.contains($0) }) || os == "BlackBerry Tablet OS"
            || (agent.platform == .android && !header.contains("Mobile"))
        {
            return .tablet
        }
        if agent.platform == .ios || agent.platform == .android || os.map(phoneSystems.contains) == true || header.contains("Mobi") {
            return .mobile
        }
        return agent.platform == .desktop ? .desktop : .other
    }
}
