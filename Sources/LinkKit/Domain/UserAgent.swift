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
    /// Command-line tools and HTTP libraries (curl, python-requests, okhttp…): bots when they "click" a
    /// link, ordinary callers when a backend calls resolve.
    public let isHTTPClient: Bool

    /// Classifies a `User-Agent` header (absent or empty: `other`, not a bot).
    public init(_ header: String?) {
        let text = (header ?? "").lowercased()
        guard !text.isEmpty else {
            (platform, isBot, isLinkPreview, isHTTPClient) = (.other, false, false, false)
            return
        }
        isLinkPreview = Self.previewMarkers.contains { text.contains($0) }
        isHTTPClient = Self.httpClientMarkers.contains { text.contains($0) }
        // Device names that happen to contain a marker (the CUBOT phones contain "bot") are taken out first.
        let scanned = Self.falsePositives.reduce(text) { $0.replacingOccurrences(of: $1, with: "") }
        isBot = isLinkPreview || Self.crawlerMarkers.contains { scanned.contains($0) }
        if text.contains("iphone") || text.contains("ipad") || text.contains("ipod") || text.hasPrefix("cfnetwork") {
            platform = .ios
        } else if text.contains("android") {
            platform = .android
        } else if text.contains("windows") || text.contains("macintosh") || text.contains("mac os x") || text.contains("x11")
                    || text.contains("linux") || text.contains("cros ") {
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

    /// Crawlers and monitors.
    static let crawlerMarkers = [
        "bot", "crawler", "spider", "crawl", "slurp", "mediapartners-google", "adsbot", "bingpreview", "headlesschrome",
        "lighthouse", "pingdom", "uptimerobot", "statuscake", "scrapy", "phantomjs", "aasa-bot", "swcd",
        "yandex", "google-inspectiontool", "googleother", "chatgpt-user", "perplexity", "feedfetcher", "archive.org_bot",
        "ia_archiver", "headless", "prerender", "siteimprove", "site24x7", "newrelicpinger", "datadog synthetic",
    ]

    /// Substrings of ordinary devices that would otherwise match a crawler marker.
    static let falsePositives = ["cubot"]

    /// Command-line tools and HTTP libraries.
    static let httpClientMarkers = [
        "curl/", "wget/", "python-requests", "python-urllib", "go-http-client", "okhttp", "java/", "libwww-perl",
        "httpclient", "axios/", "node-fetch", "httpie", "wrk",
    ]
}
