import LinkKit
import Testing

/// Real `User-Agent` strings (as sent by the browsers, apps and fetchers named) and what a hit records
/// about them.
@Suite("User-agent classification")
struct UserAgentTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let header: String?
        let platform: DevicePlatform
        let bot: Bool
        var preview = false
        var httpClient = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // People.
        Case(
            name: "iOS Safari",
            header:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
            platform: .ios, bot: false),
        Case(
            name: "iPad Safari (iPadOS 12)",
            header:
                "Mozilla/5.0 (iPad; CPU OS 12_5_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1.2 Mobile/15E148 Safari/604.1",
            platform: .ios, bot: false),
        Case(
            name: "iOS Chrome",
            header:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1",
            platform: .ios, bot: false),
        Case(name: "iOS app (CFNetwork)", header: "CFNetwork/1494.0.7 Darwin/23.4.0", platform: .ios, bot: false),
        Case(
            name: "Instagram in-app browser on iOS",
            header:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 330.0.3.26.90 (iPhone14,5; iOS 17_4; en_US; en; scale=3.00; 1170x2532; 596392498)",
            platform: .ios, bot: false),
        Case(
            name: "Android Chrome",
            header:
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36",
            platform: .android, bot: false),
        Case(
            name: "Android Samsung Internet",
            header:
                "Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
            platform: .android, bot: false),
        Case(
            name: "Android on a CUBOT phone",
            header:
                "Mozilla/5.0 (Linux; Android 10; CUBOT P30 Build/QP1A.190711.020) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 Mobile Safari/537.36",
            platform: .android, bot: false),
        Case(
            name: "Android WebView",
            header:
                "Mozilla/5.0 (Linux; Android 12; SM-A525F Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36",
            platform: .android, bot: false),
        Case(
            name: "desktop Chrome on Windows",
            header: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
            platform: .desktop, bot: false),
        Case(
            name: "desktop Edge",
            header:
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68",
            platform: .desktop, bot: false),
        Case(
            name: "desktop Firefox on Linux", header: "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
            platform: .desktop, bot: false),
        Case(
            name: "desktop Safari on macOS",
            header: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
            platform: .desktop, bot: false),
        Case(
            name: "ChromeOS",
            header: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
            platform: .desktop, bot: false),
        // Link-preview fetchers.
        Case(
            name: "Slackbot", header: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", platform: .other, bot: true,
            preview: true),
        Case(
            name: "Slack image proxy", header: "Slack-ImgProxy (+https://api.slack.com/robots)", platform: .other, bot: true, preview: true),
        Case(name: "Twitterbot", header: "Twitterbot/1.0", platform: .other, bot: true, preview: true),
        Case(
            name: "facebookexternalhit", header: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
            platform: .other, bot: true, preview: true),
        Case(
            name: "iMessage link preview",
            header:
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
            platform: .desktop, bot: true, preview: true),
        Case(name: "WhatsApp", header: "WhatsApp/2.23.20.0", platform: .other, bot: true, preview: true),
        Case(name: "WhatsApp on Android", header: "WhatsApp/2.21.12.21 A", platform: .other, bot: true, preview: true),
        Case(name: "Telegram", header: "TelegramBot (like TwitterBot)", platform: .other, bot: true, preview: true),
        Case(
            name: "Discord", header: "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", platform: .other, bot: true,
            preview: true),
        Case(
            name: "LinkedIn", header: "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
            platform: .other, bot: true, preview: true, httpClient: true),
        Case(
            name: "Microsoft Teams / Skype",
            header: "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com", platform: .desktop,
            bot: true, preview: true),
        Case(
            name: "Applebot",
            header:
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
            platform: .desktop, bot: true, preview: true),
        // Crawlers and monitors.
        Case(
            name: "Googlebot", header: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", platform: .other,
            bot: true),
        Case(
            name: "Googlebot smartphone",
            header:
                "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
            platform: .android, bot: true),
        Case(
            name: "Bingbot", header: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", platform: .other, bot: true),
        Case(name: "YandexBot", header: "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", platform: .other, bot: true),
        Case(
            name: "Baiduspider", header: "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
            platform: .other, bot: true),
        Case(name: "AhrefsBot", header: "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)", platform: .other, bot: true),
        Case(
            name: "GPTBot",
            header: "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
            platform: .other, bot: true),
        Case(name: "Apple's AASA fetcher", header: "AASA-Bot/1.0.0", platform: .other, bot: true),
        Case(
            name: "Headless Chrome",
            header: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
            platform: .desktop, bot: true),
        Case(
            name: "UptimeRobot", header: "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)", platform: .other,
            bot: true),
        // Tools and libraries: bots when they click, callers when they resolve.
        Case(name: "curl", header: "curl/8.5.0", platform: .other, bot: false, httpClient: true),
        Case(name: "wget", header: "Wget/1.21.4", platform: .other, bot: false, httpClient: true),
        Case(name: "python-requests", header: "python-requests/2.32.3", platform: .other, bot: false, httpClient: true),
        Case(name: "Go", header: "Go-http-client/1.1", platform: .other, bot: false, httpClient: true),
        Case(name: "OkHttp", header: "okhttp/4.12.0", platform: .other, bot: false, httpClient: true),
        // A device name containing a crawler marker neither counts nor joins its neighbours into one.
        Case(name: "a crawler marker only inside a device name", header: "HeadCUBOTless", platform: .other, bot: false),
        Case(name: "a crawler marker right after a device name", header: "cubotbot", platform: .other, bot: true),
        Case(name: "a marker at the very end", header: "x/1 wrk", platform: .other, bot: false, httpClient: true),
        Case(name: "CFNetwork only at the start", header: "CFNetwork/1410.0.3 Darwin/22.6.0", platform: .ios, bot: false),
        // Nothing to go on.
        Case(name: "no header", header: nil, platform: .other, bot: false),
        Case(name: "empty header", header: "", platform: .other, bot: false),
    ]

    @Test(arguments: cases)
    func classifies(_ example: Case) {
        let agent = UserAgent(example.header)
        #expect(agent.platform == example.platform)
        #expect(agent.isBot == example.bot)
        #expect(agent.isLinkPreview == example.preview)
        #expect(agent.isHTTPClient == example.httpClient)
    }
}

/// In-app browsers: the landing page adds an "Open in Safari / Chrome" hint for them (docs/LANDING.md).
@Suite("In-app browser detection")
struct InAppBrowserTests {
    static let inApp: [(String, String, DevicePlatform)] = [
        (
            "Instagram iOS",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 327.0.0.29.90 (iPhone14,2; iOS 17_4; en_US)",
            .ios
        ),
        (
            "Facebook iOS",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/455.0.0.44.107;FBDV/iPhone14,2]",
            .ios
        ),
        (
            "Facebook Android",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/455.0.0.44.107;]",
            .android
        ),
        (
            "TikTok",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_34.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en",
            .ios
        ),
        (
            "LinkedIn",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.8",
            .ios
        ),
        (
            "Google app",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/311.0.621065643 Mobile/15E148 Safari/604.1",
            .ios
        ),
        (
            "Line",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.3.0",
            .ios
        ),
        (
            "X",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.34",
            .ios
        ),
        (
            "Snapchat",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/12.80.0.40 (like Safari/8617.1.17.10.9)",
            .ios
        ),
        (
            "Pinterest",
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]",
            .ios
        ),
        (
            "Android WebView",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.0.0 Mobile Safari/537.36",
            .android
        ),
    ]

    @Test func inAppBrowsersAreNoBots() {
        for (name, header, platform) in Self.inApp {
            let agent = UserAgent(header)
            #expect(agent.isInAppBrowser, "\(name)")
            #expect(!agent.isBot, "\(name)")
            #expect(agent.platform == platform, "\(name)")
        }
    }

    @Test func browsersAndBotsAreNotInApp() {
        for header in [
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
            "Twitterbot/1.0", "Pinterestbot/1.0", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        ] {
            #expect(!UserAgent(header).isInAppBrowser, "\(header)")
        }
        #expect(UserAgent("Pinterestbot/1.0").isLinkPreview)
    }
}
