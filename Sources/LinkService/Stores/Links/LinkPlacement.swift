import Foundation
import LinkKit

/// Whether a domain's rules let a link open what it points at at its slug: the one test behind refusing a slug
/// (`POST`/`PATCH /v1/links`) and reporting the links a rule change shadows (`RuleValidator`).
struct LinkPlacement {
    let slug: String
    /// The link's app and its platform, and its destination type; nil app: a link to a web page.
    let app: (id: String, platform: AppPlatform)?
    let destinationType: String?

    /// What a rule does instead, on either platform: its position and a phrase ("excludes it on ios", "opens the app
    /// com.example.other there"); nil when no rule decides the link's URL otherwise. `resolve` answers a URL on the
    /// domain for a platform; positions from `ruleCount` on are the link space's, no rule's.
    func conflict(host: String, ruleCount: Int, resolve: (AASAURL, AppPlatform) -> LinkResolution) -> (position: Int, what: String)? {
        let url = AASAURL(https: host, path: "/" + slug, query: nil)
        for platform in [AppPlatform.ios, .android] {
            let resolution = resolve(url, platform)
            guard let position = resolution.position, position < ruleCount else { continue }
            switch resolution.outcome {
            case .noMatch: continue
            case .excluded: return (position, "excludes it on \(platform.rawValue)")
            case .openApp:
                guard let opened = resolution.app else { continue }
                let same =
                    app.map { app in
                        opened.platform == app.platform ? opened.id == app.id : opened.destinations[destinationType ?? ""] != nil
                    } ?? false
                if !same { return (position, "opens the app \(opened.identifier) there") }
            }
        }
        return nil
    }
}
