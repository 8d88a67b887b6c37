import Foundation
import HTTPServer
import LinkKit

/// Any other `GET` on a registered link domain is a click (the app was not installed, or the link was
/// opened in a browser): logged as a hit and answered with a redirect chosen by platform. Only
/// configured URLs are ever redirect targets (store pages, the domain's web fallback), so a link domain
/// is never an open redirect. Link-preview fetchers get a small HTML page with a title instead.
struct ClickHandler: Sendable {
    let resolver: Resolver
    let hits: any HitSink

    func handle(_ request: Request) throws -> Response {
        guard let host = request.host, resolver.catalog.entry(governing: host) != nil,
              !request.path.hasPrefix("/v1/"), !request.path.hasPrefix("/.well-known/")
        else { throw ServiceError.notFound("'\(request.path.prefix(200))'") }
        guard request.method == .GET || request.method == .HEAD else {
            throw Problem.methodNotAllowed.with(detail: "Links answer GET and HEAD only.")
        }
        let agent = UserAgent(of: request)
        let platform: AppPlatform = agent.platform == .android ? .android : .ios
        var url = "https://" + host + request.path
        if let query = request.rawQuery { url += "?" + query }
        let answer: Resolver.Answer
        do {
            answer = try resolver.resolve(url, platform: platform, workspace: nil).answer
        } catch {
            throw ServiceError.badRequest("The link is not a valid URL.")
        }
        hits.record(Hit(resolved: answer, source: .click, request: request, workspace: answer.entry?.workspaceID), from: request)
        if agent.isLinkPreview { return preview(answer) }
        guard let target = target(answer, agent: agent) else {
            throw ServiceError.notFound("No web fallback is configured for this link; the page")
        }
        var headers = HTTPHeaders()
        headers.add("Location", target)
        headers.add("Cache-Control", "no-store")
        headers.add("Content-Type", "text/plain; charset=utf-8")
        return Response(status: 302, headers: headers, body: Array("Redirecting to \(target)\n".utf8))
    }

    /// iOS: the App Store page of the app that would open the link, else the web fallback; Android: the Play
    /// Store page, else the web fallback; everything else: the web fallback.
    func target(_ answer: Resolver.Answer, agent: UserAgent) -> String? {
        let opensApp = answer.resolution?.outcome == .openApp
        switch agent.platform {
        case .ios where opensApp: return answer.storeURL(for: .ios) ?? answer.webFallback
        case .android where opensApp: return answer.storeURL(for: .android) ?? answer.webFallback
        default: return answer.webFallback
        }
    }

    /// A minimal page for link-preview fetchers: the destination's title (or the host) as title and og:title.
    func preview(_ answer: Resolver.Answer) -> Response {
        var title = answer.entry?.hostname ?? answer.parsed.host
        if let resolution = answer.resolution, let app = resolution.app, let type = resolution.rule?.destination?.type {
            title = app.titles[type] ?? title
        }
        let escaped = Self.escapeHTML(title)
        var html = "<!doctype html><html><head><meta charset=\"utf-8\"><title>\(escaped)</title>"
        html += "<meta property=\"og:title\" content=\"\(escaped)\">"
        if let web = answer.webFallback { html += "<meta property=\"og:url\" content=\"\(Self.escapeHTML(web))\">" }
        html += "</head><body><h1>\(escaped)</h1></body></html>\n"
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Cache-Control", "public, max-age=300")
        return Response(status: 200, headers: headers, body: Array(html.utf8))
    }

    static func escapeHTML(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
