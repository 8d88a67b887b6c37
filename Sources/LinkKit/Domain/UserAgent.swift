/// What a `User-Agent` says about the visitor: platform, and whether it is a crawler or a link-preview
/// fetcher (which inflate click counts and must not be redirected into app stores).
public struct UserAgent: Sendable, Hashable {
    public enum Platform: String, Sendable, Hashable, CaseIterable {
        case ios, android, desktop, other
    }

    public let platform: Platform
    /// Known crawlers and link-preview fetchers (Slackbot, Twitterbot, facebookexternalhit, WhatsApp, …).
    public let isBot: Bool
    /// Link-preview fetchers in particular: they get a small HTML page with a title instead of a redirect.
    public let isLinkPreview: Bool

    /// Classifies a `User-Agent` header (absent or empty: `other`, not a bot).
    public init(_ header: String?) {
        let text = (header ?? "").lowercased()
        isLinkPreview = Self.previewMarkers.contains { text.contains($0) }
        isBot = isLinkPreview || Self.botMarkers.contains { text.contains($0) }
        if text.contains("iphone") || text.contains("ipad") || text.contains("ipod") || text.hasPrefix("cfnetwork") {
            platform = .ios
        } else if text.contains("android") {
            platform = .android
        } else if text.contains("windows") || text.contains("macintosh") || text.contains("mac os x") || text.contains("x11")
                    || text.contains("linux") || text.contains("cros") {
            platform = .desktop
        } else {
            platform = .other
        }
    }

    /// Fetchers that render a preview card of a shared link.
    static let previewMarkers = [
        "slackbot", "slack-imgproxy", "twitterbot", "facebookexternalhit", "facebot", "whatsapp", "telegrambot",
        "discordbot", "linkedinbot", "skypeuripreview", "applebot", "redditbot", "pinterest", "embedly", "iframely",
        "vkshare", "snapchat", "bitlybot", "mattermost", "microsoft teams", "googlebot-image", "zoominfobot",
    ]

    /// Crawlers, monitors and HTTP libraries.
    static let botMarkers = [
        "bot", "crawler", "spider", "crawl", "slurp", "mediapartners-google", "adsbot", "bingpreview", "headlesschrome",
        "lighthouse", "pingdom", "uptimerobot", "statuscake", "curl/", "wget/", "python-requests", "python-urllib", "go-http-client",
        "okhttp", "java/", "libwww-perl", "httpclient", "axios/", "node-fetch", "scrapy", "phantomjs", "aasa-bot", "swcd",
    ]
}
