import ByteText
import Foundation
import LinkKit

/// The landing page of a click on an app link, and the preview page bots get (docs/LANDING.md): one small HTML
/// page with inline CSS, readable at 320 px, working with JavaScript off. Every value is HTML-escaped (and loses
/// the bidirectional controls a name stored before they were refused may hold, `TextLimit.isBidiControl`) and every
/// URL in it is one linkd built from configuration (store pages, the web fallback, the app's scheme and package,
/// the link itself), percent-encoded where a URL may not hold a byte; the only images are the app's icon and the
/// preview image, each allowed by origin in the page's Content-Security-Policy.
struct LandingPage {
    /// The page's buttons and metadata; nil members are left out.
    struct Content {
        var link: String
        var preview: LinkPreview
        /// The app the link opens, named above the title with its icon.
        var appName: String?
        var appIcon: String?
        /// iOS: the numeric App Store id for the Smart App Banner.
        var appStoreID: String?
        /// "Open in the app": the custom-scheme link (iOS) or the intent URL (Android).
        var openLink: String?
        /// "Get the app": the store page (with the token as Play `referrer` on Android).
        var storeLink: String?
        /// A second store button, Google Play beside the App Store (a desktop's not-found page); the first then
        /// names its store.
        var playLink: String?
        var webLink: String?
        /// iOS with `deferredClipboard`: put on the pasteboard when "Get the app" is tapped.
        var claimLink: String?
        /// Set for in-app browsers: which browser the hint names.
        var inAppBrowser: String?
        /// Desktop without a web fallback: the link's QR code (inline SVG).
        var qrSVG: String?

        /// The icon, if its origin can be allowed (`LandingPage.origin`).
        var shownIcon: String? { appIcon.flatMap { LandingPage.origin($0) == nil ? nil : $0 } }
        /// The preview image, if its origin can be allowed.
        var shownImage: String? { preview.imageURL.flatMap { LandingPage.origin($0) == nil ? nil : $0 } }

        /// The page's Content-Security-Policy: its script with a claim link, and its images' origins.
        var policy: String {
            let script = claimLink != nil
            let origins = [shownIcon, shownImage].compactMap { $0.flatMap(LandingPage.origin) }
            guard !origins.isEmpty else { return script ? LandingPage.policies.script : LandingPage.policies.plain }
            return LandingPage.contentSecurityPolicy(script: script, images: Array(Set(origins)).sorted())
        }
    }

    /// The page's only style, and the only script (the pasteboard copy, on pages with a claim link): the
    /// Content-Security-Policy allows exactly these, by hash.
    static let style = """
        body{margin:0;font:17px/1.4 -apple-system,system-ui,sans-serif;background:#f6f6f8;color:#111}\
        main{max-width:28rem;margin:0 auto;padding:2rem 1rem;overflow-wrap:anywhere}h1{font-size:1.4rem;margin:0 0 .5rem}\
        p{margin:.5rem 0 1rem;color:#444}.hint{background:#fff4d6;padding:.75rem;border-radius:.5rem}\
        a.b{display:block;text-align:center;padding:.9rem 1rem;margin:.75rem 0;border-radius:.75rem;\
        text-decoration:none;font-weight:600;background:#fff;color:#0a58ca;border:1px solid #ccd}\
        a.b.p{background:#0a58ca;color:#fff;border-color:#0a58ca}.qr{text-align:center}.qr svg{max-width:100%;height:auto}\
        small{color:#666}.app{display:flex;align-items:center;gap:.75rem;margin:0 0 1rem;font-weight:600}\
        .app img{width:48px;height:48px;border-radius:11px}.hero{display:block;width:100%;height:auto;border-radius:.75rem;\
        margin:0 0 1rem}
        """
    static let script = """
        document.getElementById("get").addEventListener("click",function(e){var c=this.getAttribute("data-claim"),\
        h=this.href;if(!c||!navigator.clipboard)return;e.preventDefault();navigator.clipboard.writeText(c)\
        .then(function(){location.href=h},function(){location.href=h})});
        """

    static let styleHash = hash(style)
    static let scriptHash = hash(script)

    private static func hash(_ text: String) -> String {
        "'sha256-" + Data(SHA256.digest(Array(text.utf8))).base64EncodedString() + "'"
    }

    /// The policy of a page: nothing but its own style, its script when it has one, and images from `images`
    /// (origins).
    static func contentSecurityPolicy(script: Bool, images: [String] = []) -> String {
        "default-src 'none'; style-src \(styleHash); script-src \(script ? scriptHash : "'none'");"
            + " img-src \(images.isEmpty ? "'none'" : images.joined(separator: " "));"
            + " base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    /// `https://host[:port]` of an https URL whose host is a DNS name or an IPv4 address (lower-case letters, digits,
    /// `.` and `-`): a CSP source that allows that origin alone. Nil for anything else, whose image the page then leaves out.
    static func origin(_ url: String) -> String? {
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "https",
            let host = components.host?.lowercased(), !host.isEmpty,
            host.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x2D })
        else { return nil }
        return "https://" + host + (components.port.map { ":\($0)" } ?? "")
    }

    /// The landing page.
    static func render(_ content: Content) -> [UInt8] {
        var html = head(content.preview, link: content.link, appStoreID: content.appStoreID)
        html += "<main>"
        if content.appName != nil || content.shownIcon != nil {
            html += "<div class=\"app\" id=\"app\">"
            if let icon = content.shownIcon { html += "<img src=\"\(attribute(icon))\" alt=\"\" width=\"48\" height=\"48\">" }
            if let name = content.appName { html += "<span>\(escape(name))</span>" }
            html += "</div>"
        }
        if let image = content.shownImage { html += "<img class=\"hero\" id=\"image\" src=\"\(attribute(image))\" alt=\"\">" }
        html += "<h1>\(escape(title(content.preview, link: content.link)))</h1>"
        if let description = content.preview.description { html += "<p>\(escape(description))</p>" }
        if let browser = content.inAppBrowser {
            html +=
                "<p class=\"hint\" id=\"hint\">To open this link in the app, open it in \(browser): tap the ··· menu and"
                + " choose “Open in \(browser)”.</p>"
        }
        if let qr = content.qrSVG {
            html += "<div class=\"qr\" id=\"qr\">\(qr)</div><p>Scan the code to open this link on your phone.</p>"
        }
        if let open = content.openLink { html += "<a class=\"b p\" id=\"open\" href=\"\(attribute(open))\">Open in the app</a>" }
        if let store = content.storeLink {
            html += "<a class=\"b\(content.openLink == nil ? " p" : "")\" id=\"get\" href=\"\(attribute(store))\""
            if let claim = content.claimLink { html += " data-claim=\"\(attribute(claim))\"" }
            html += content.playLink == nil ? ">Get the app</a>" : ">Get the app on the App Store</a>"
        }
        if let play = content.playLink { html += "<a class=\"b\" id=\"play\" href=\"\(attribute(play))\">Get the app on Google Play</a>" }
        if let web = content.webLink { html += "<a class=\"b\" id=\"web\" href=\"\(attribute(web))\">Continue to the website</a>" }
        if content.claimLink != nil {
            html += "<p><small>“Get the app” copies this link, so that the app can open it once installed.</small></p>"
            html += "</main><script>\(script)</script></body></html>\n"
        } else {
            html += "</main></body></html>\n"
        }
        return Array(html.utf8)
    }

    /// The page link-preview bots and crawlers get: the same metadata, no buttons, no token.
    static func preview(_ preview: LinkPreview, link: String) -> [UInt8] {
        var html = head(preview, link: link, appStoreID: nil)
        html += "<main><h1>\(escape(title(preview, link: link)))</h1>"
        if let description = preview.description { html += "<p>\(escape(description))</p>" }
        html += "</main></body></html>\n"
        return Array(html.utf8)
    }

    private static func title(_ preview: LinkPreview, link: String) -> String {
        preview.title ?? URLComponents(string: link)?.host ?? link
    }

    private static func head(_ preview: LinkPreview, link: String, appStoreID: String?) -> String {
        let title = escape(title(preview, link: link))
        var html = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        html.reserveCapacity(4096)
        html += "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>\(title)</title>"
        if let appStoreID {
            html += "<meta name=\"apple-itunes-app\" content=\"app-id=\(escape(appStoreID)), app-argument=\(attribute(link))\">"
        }
        html += "<meta property=\"og:title\" content=\"\(title)\"><meta property=\"og:url\" content=\"\(attribute(link))\">"
        html += "<meta name=\"twitter:title\" content=\"\(title)\">"
        if let description = preview.description.map(escape) {
            html += "<meta name=\"description\" content=\"\(description)\"><meta property=\"og:description\" content=\"\(description)\">"
            html += "<meta name=\"twitter:description\" content=\"\(description)\">"
        }
        if let image = preview.imageURL.map(attribute) {
            html += "<meta property=\"og:image\" content=\"\(image)\"><meta name=\"twitter:image\" content=\"\(image)\">"
            html += "<meta name=\"twitter:card\" content=\"summary_large_image\">"
        } else {
            html += "<meta name=\"twitter:card\" content=\"summary\">"
        }
        html += "<style>\(style)</style></head><body>"
        return html
    }

    /// `text` with `& < > " '` as character references, without bidirectional controls: the page's title, heading
    /// and `og:` tags then read as their characters are stored (`invoice<U+202E>gpj.exe` as "invoicegpj.exe", not
    /// "invoiceexe.jpg"), in the tab and in a chat's preview too, where no markup can isolate them. Names refuse
    /// them since; this is for names stored before (docs/LANDING.md).
    static func escape(_ text: String) -> String {
        // Most text has nothing to escape: ASCII without `& < > " '` comes back as it is (no bidi control is ASCII).
        if text.utf8.allSatisfy({ $0 < 0x80 && !isEscaped($0) }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case _ where TextLimit.isBidiControl(scalar): continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A URL for an attribute: bytes a URL may not hold literally (controls, space, non-ASCII, `" ' < > \ ^ ` { | }`)
    /// percent-encoded, then HTML-escaped.
    static func attribute(_ url: String) -> String {
        escape(Percent.encoded(url, keeping: allowedInURL))
    }

    /// Printable ASCII but `" ' < > \ ^ ` { | }` (`%` stays: the link's own escapes are kept).
    static func allowedInURL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
            UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            false
        default: Percent.isPrintableASCII(byte)
        }
    }

    /// The ASCII characters `escape` writes as character references.
    private static func isEscaped(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }
}

extension LandingPage {
    /// A rendered page kept with the answer it was made for (`Resolver.Answer.pages`), with the places its click
    /// token goes: a page is then a copy of the bytes with the token written over each place (a token always has
    /// 32 characters), not a render. The places are found by rendering with two different markers of a token's
    /// length and keeping where the two differ, so no text of the page can be taken for one.
    final class Template: Sendable {
        let bytes: [UInt8]
        let tokenOffsets: [Int]
        /// The page's Content-Security-Policy (`Content.policy`).
        let policy: String
        /// What each token put on the page is stored with (the link and its answer), made once with the page; nil for
        /// a page without a token.
        let stem: ClickTokens.Stem?

        /// - Parameter render: the page for a token (nil: the page without one).
        init(tokenized: Bool, policy: String, stem: ClickTokens.Stem? = nil, _ render: (String?) -> [UInt8]) {
            self.policy = policy
            self.stem = tokenized ? stem : nil
            guard tokenized else {
                (bytes, tokenOffsets) = (render(nil), [])
                return
            }
            let first = render(String(repeating: "Z", count: 32)), second = render(String(repeating: "Y", count: 32))
            precondition(first.count == second.count, "a token's places depend on the token only")
            let differing = first.indices.filter { first[$0] != second[$0] }
            (bytes, tokenOffsets) = (first, stride(from: 0, to: differing.count, by: 32).map { differing[$0] })
        }

        /// The page with `token` (32 characters) in its places.
        func page(token: String?) -> [UInt8] {
            guard let token, !tokenOffsets.isEmpty else { return bytes }
            var page = bytes
            let utf8 = Array(token.utf8)
            precondition(utf8.count == 32, "tokens have 32 characters")
            page.withUnsafeMutableBufferPointer { page in
                for offset in tokenOffsets { (page.baseAddress! + offset).update(from: utf8, count: 32) }
            }
            return page
        }
    }

    /// The policies of pages without images, made once.
    static let policies = (plain: contentSecurityPolicy(script: false), script: contentSecurityPolicy(script: true))
}
