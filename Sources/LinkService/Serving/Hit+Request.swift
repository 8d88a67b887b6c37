import Foundation
import HTTPServer
import LinkKit
import Postgres

extension Hit {
    /// The hit of one resolved URL, described from the request that asked (its classified user agent, referrer). A
    /// custom-scheme link is logged on the domain that decided, or as `scheme:` when no app owns the scheme. A stored
    /// link's hit records the link, and its campaign fills the fields the URL's `utm_*` query items do not carry
    /// (`Hit.Campaign.of(query:link:)`; the query wins field by field).
    ///
    /// The device class is `bot` whenever the hit counts as a bot (`isBot`), so the two always agree.
    init(resolved answer: Resolver.Answer, source: Source, request: Request, agent classified: ClassifiedAgent, workspace: UUID?) {
        let agent = classified.userAgent
        // HEAD requests and tools "clicking" links are the classic cause of inflated click counts.
        let isBot = agent.isBot || request.method == .HEAD || (source == .click && agent.isHTTPClient)
        let resolution = answer.resolution
        var destinationType: String?
        if case .destination(let type, _)? = resolution?.destination { destinationType = type }
        if case .error? = resolution?.destination { destinationType = resolution?.rule?.destination?.type }
        self.init(
            workspaceID: workspace,
            hostname: answer.entry?.hostname ?? (answer.parsed.isWeb ? answer.parsed.host : answer.parsed.scheme + ":"),
            path: answer.parsed.path,
            query: answer.parsed.query,
            outcome: answer.outcome,
            appID: answer.appID,
            ruleID: answer.entry?.ruleID(at: resolution?.position), // the entry's UUID, not its text parsed back
            destinationType: destinationType,
            source: source,
            platform: agent.platform,
            isBot: isBot,
            referrerHost: request.headers["Referer"].flatMap { URLComponents(string: $0)?.host?.lowercased() },
            linkID: answer.storedLink?.id,
            campaign: Campaign.of(query: answer.parsed.query, link: answer.linkCampaign),
            os: classified.os,
            browser: classified.browser,
            device: isBot ? .bot : classified.device
        )
        target = answer.target
        variant = answer.variant
    }
}
