import Foundation
import LinkKit

/// What one platform's devices do with a URL under one compilation of a domain, as resolve answers it: the outcome
/// (`open_app`, `invalid_param`, `excluded`, `no_match`), the app that opens it and the destination. The deciding
/// rule's position is not part of it: moving a rule that decides the same way moves nothing.
struct URLDecision: Equatable {
    let outcome: String
    let app: DomainApp?
    /// The typed destination or explicit error as resolve writes it; for a stored link the link decides,
    /// `{"type": …, "link": slug}` (its parameters are the link's, the same under every version).
    let destination: JSONValue?

    static func == (lhs: URLDecision, rhs: URLDecision) -> Bool {
        lhs.outcome == rhs.outcome && lhs.app?.id == rhs.app?.id && lhs.destination == rhs.destination
    }

    /// The decision of `entry` for `url` on `platform`, with the domain's stored links at their slugs (`links`), as
    /// `Resolver` decides them (a link's destination where the app opening its URL is the app it opens there).
    init(_ entry: CatalogEntry, url: AASAURL, platform: AppPlatform, links: [String: (app: UUID?, type: String?)]) {
        let resolution = entry.resolve(url, platform: platform)
        app = resolution.app
        switch resolution.outcome {
        case .openApp:
            if case .error? = resolution.destination { outcome = "invalid_param" } else { outcome = "open_app" }
        case .excluded: outcome = "excluded"
        case .noMatch: outcome = "no_match"
        }
        if resolution.outcome == .openApp, entry.links.hasLinks, let app = resolution.app,
            let slug = LinkSlug.candidate(path: url.path), let link = links[slug], let linkApp = link.app, let type = link.type,
            entry.linkApp(linkApp.canonicalText, type: type, platform: platform) === app
        {
            destination = .object([JSONMember(key: "type", value: .string(type)), JSONMember(key: "link", value: .string(slug))])
            return
        }
        guard resolution.outcome == .openApp, let decided = resolution.destination else {
            destination = nil
            return
        }
        var bytes: [UInt8] = []
        DestinationJSON.write(decided, into: &bytes)
        destination = try? JSONValue.parse(bytes: bytes)
    }

    var json: JSONValue {
        var members = [JSONMember(key: "outcome", value: .string(outcome))]
        if let app {
            members.append(
                JSONMember(
                    key: "app",
                    value: .object([
                        JSONMember(key: "id", value: .string(app.id)),
                        JSONMember(key: "platform", value: .string(app.platform.rawValue)),
                        JSONMember(key: app.platform == .ios ? "appId" : "packageName", value: .string(app.identifier)),
                    ])))
        }
        if let destination { members.append(JSONMember(key: "destination", value: destination)) }
        return .object(members)
    }
}
