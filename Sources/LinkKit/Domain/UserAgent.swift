import Glibc

/// What a `User-Agent` says about the visitor: platform, and whether it is a crawler or a link-preview
/// fetcher (which inflate click counts and must not be redirected into app stores).
public struct UserAgent: Sendable, Hashable {
    public let platform: DevicePlatform
    /// Known crawlers and link-preview fetchers (Slackbot, Twitterbot, facebookexternalhit, WhatsApp, …).
    public let isBot: Bool
    /// Link-preview fetchers in particular: they get a small HTML page with a title instead of a redirect.
    public let isLinkPreview: Bool
    /// Command-line tools and HTTP libraries (curl, python-requests, okhttp…): bots when they "click" a
    /// link, ordinary callers when a backend calls resolve.
    public let isHTTPClient: Bool
    /// An app's in-app browser (Instagram, Facebook, TikTok, LinkedIn, Google app, Line, X, Snapchat, Pinterest, an
    /// Android WebView): such browsers do not hand universal links to the system, so the landing page adds an
    /// "Open in Safari / Chrome" hint (docs/LANDING.md).
    public let isInAppBrowser: Bool
    /// An iPad that says so (iPadOS's Safari asks for desktop pages by default and then reads as a Mac).
    public let isIPad: Bool

    /// Classifies a `User-Agent` header (absent or empty: `other`, not a bot).
    ///
    /// One pass over the ASCII-lower-cased header: at each byte, only the markers that may begin there are compared
    /// (`MarkerTable`). The markers are ASCII, so bytes compare where `String.contains` would compare `Character`s,
    /// and one pass replaces a search of the whole header per marker.
    public init(_ header: String?) {
        var text = Array((header ?? "").utf8)
        guard !text.isEmpty else {
            (platform, isBot, isLinkPreview, isHTTPClient, isInAppBrowser, isIPad) = (.other, false, false, false, false, false)
            return
        }
        for index in text.indices where text[index] >= UInt8(ascii: "A") && text[index] <= UInt8(ascii: "Z") {
            text[index] += 32
        }
        let found = Self.markers.scan(text)
        isLinkPreview = found.contains(.preview)
        isHTTPClient = found.contains(.httpClient)
        isBot = isLinkPreview || found.contains(.crawler)
        isInAppBrowser = !isBot && found.contains(.inApp)
        isIPad = found.contains(.ipad)
        if found.contains(.ios) || text.starts(with: Self.cfNetwork) {
            platform = .ios
        } else if found.contains(.android) {
            platform = .android
        } else if found.contains(.desktop) {
            platform = .desktop
        } else {
            platform = .other
        }
    }

    /// What kind of client a marker stands for.
    enum Kind: UInt8 {
        case preview, crawler, httpClient, ios, android, desktop, inApp, ipad
    }

    /// The kinds a scan found, as bits of `Kind.rawValue`.
    struct Kinds {
        var bits: UInt8 = 0
        func contains(_ kind: Kind) -> Bool { bits & (1 << kind.rawValue) != 0 }
        mutating func insert(_ kind: Kind) { bits |= 1 << kind.rawValue }
    }

    /// Every marker, bucketed by a hash of its first two bytes: `scan` compares at each position of the header only
    /// the markers whose first two bytes hash like the two bytes there (at most positions, none).
    struct MarkerTable {
        private struct MarkerSpan {
            let start: Int32
            let length: Int32
            let kind: Kind
        }

        private static let bucketCount = 1024
        /// All markers' bytes, one after the other.
        private let bytes: [UInt8]
        /// The markers whose first two bytes hash to `h` are `spans[bucketStarts[h]..<bucketStarts[h + 1]]`.
        private let bucketStarts: [Int32]
        private let spans: [MarkerSpan]
        /// Substrings of ordinary devices (the CUBOT phones): a crawler marker found inside one does not count.
        private let falsePositives: [[UInt8]]

        init(_ markers: [(Kind, [String])], falsePositives: [String]) {
            let all = markers.flatMap { kind, texts in texts.map { (kind: kind, bytes: Array($0.utf8)) } }
            precondition(all.allSatisfy { $0.bytes.count >= 2 }, "markers have at least two bytes")
            var buckets = [[(kind: Kind, bytes: [UInt8])]](repeating: [], count: Self.bucketCount)
            for marker in all { buckets[Self.hash(marker.bytes[0], marker.bytes[1])].append(marker) }
            var bytes: [UInt8] = [], spans: [MarkerSpan] = [], bucketStarts: [Int32] = [0]
            for bucket in buckets {
                for marker in bucket {
                    spans.append(MarkerSpan(start: Int32(bytes.count), length: Int32(marker.bytes.count), kind: marker.kind))
                    bytes += marker.bytes
                }
                bucketStarts.append(Int32(spans.count))
            }
            (self.bytes, self.spans, self.bucketStarts) = (bytes, spans, bucketStarts)
            self.falsePositives = falsePositives.map { Array($0.utf8) }
        }

        private static func hash(_ first: UInt8, _ second: UInt8) -> Int {
            (Int(first) &* 31 &+ Int(second)) & (bucketCount - 1)
        }

        /// The kinds of every marker occurring in `text` (lower-cased).
        func scan(_ text: [UInt8]) -> Kinds {
            var found = Kinds()
            guard text.count >= 2 else { return found }
            text.withUnsafeBufferPointer { text in
                bytes.withUnsafeBufferPointer { bytes in
                    spans.withUnsafeBufferPointer { spans in
                        bucketStarts.withUnsafeBufferPointer { bucketStarts in
                            for position in 0..<(text.count - 1) {
                                let bucket = Self.hash(text[position], text[position + 1])
                                for slot in Int(bucketStarts[bucket])..<Int(bucketStarts[bucket + 1]) {
                                    let span = spans[slot]
                                    let length = Int(span.length)
                                    guard !found.contains(span.kind), length <= text.count - position,
                                        memcmp(text.baseAddress! + position, bytes.baseAddress! + Int(span.start), length) == 0
                                    else { continue }
                                    if span.kind == .crawler, insideFalsePositive(text, at: position, length: length) { continue }
                                    found.insert(span.kind)
                                }
                            }
                        }
                    }
                }
            }
            return found
        }

        /// Whether `text[position..<position + length]` lies within an occurrence of a false positive.
        private func insideFalsePositive(_ text: UnsafeBufferPointer<UInt8>, at position: Int, length: Int) -> Bool {
            falsePositives.contains { word in
                guard word.count >= length else { return false }
                let earliest = max(0, position + length - word.count), latest = min(position, text.count - word.count)
                guard earliest <= latest else { return false }
                return (earliest...latest).contains { start in
                    word.withUnsafeBufferPointer { memcmp(text.baseAddress! + start, $0.baseAddress!, word.count) == 0 }
                }
            }
        }
    }

    private static let cfNetwork = Array("cfnetwork".utf8)

    static let markers = MarkerTable(
        [
            (.ipad, ["ipad"]),
            // Fetchers that render a preview card of a shared link.
            (
                .preview,
                [
                    "slackbot", "slack-imgproxy", "twitterbot", "facebookexternalhit", "facebot", "whatsapp", "telegrambot",
                    "discordbot", "linkedinbot", "skypeuripreview", "applebot", "redditbot", "pinterestbot", "embedly", "iframely",
                    "vkshare", "snap url preview", "bitlybot", "mattermost", "microsoft teams", "googlebot-image", "zoominfobot",
                ]
            ),
            // Crawlers and monitors.
            (
                .crawler,
                [
                    "bot", "crawler", "spider", "crawl", "slurp", "mediapartners-google", "adsbot", "bingpreview", "headlesschrome",
                    "lighthouse", "pingdom", "uptimerobot", "statuscake", "scrapy", "phantomjs", "aasa-bot", "swcd",
                    "yandex", "google-inspectiontool", "googleother", "chatgpt-user", "perplexity", "feedfetcher", "archive.org_bot",
                    "ia_archiver", "headless", "prerender", "siteimprove", "site24x7", "newrelicpinger", "datadog synthetic",
                ]
            ),
            // Command-line tools and HTTP libraries.
            (
                .httpClient,
                [
                    "curl/", "wget/", "python-requests", "python-urllib", "go-http-client", "okhttp", "java/", "libwww-perl",
                    "httpclient", "axios/", "node-fetch", "httpie", "wrk",
                ]
            ),
            (.ios, ["iphone", "ipad", "ipod"]),
            (.android, ["android"]),
            (.desktop, ["windows", "macintosh", "mac os x", "x11", "linux", "cros "]),
            // In-app browsers (the Android WebView marker is `; wv)`).
            (
                .inApp,
                [
                    "instagram", "fban/", "fbav/", "fb_iab", "tiktok", "musical_ly", "bytedancewebview", "linkedinapp", "gsa/",
                    " line/", "twitter", "snapchat", "pinterest/", "; wv)",
                ]
            ),
        ], falsePositives: ["cubot"])
}
