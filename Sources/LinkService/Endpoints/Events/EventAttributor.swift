import Foundation
import LinkKit
import Postgres

/// The last-click model of docs/EVENTS.md, "Attribution": an event carrying a click token is attributed through
/// the token's click (the link, campaign, target and variant it was given); one carrying the URL the app was opened
/// with, through that URL resolved as a click is (`Resolver`, the stored link and its campaign, the URL's `utm_*`
/// first); any other with a visitor id, to the visitor's last attributed event within the workspace's window;
/// otherwise none, with the reason. Deterministic only: nothing about the device is matched. The country and OS an
/// event is counted under are its click's (the token's, the visitor's last; for a link URL, which linkd saw no click
/// of, the visitor's last click's, else the app's OS).
struct EventAttributor {
    let resolver: Resolver

    /// Attributes `event`; `earlier` gives the visitor's last attributed event of the same request at or before a time
    /// (not stored yet), which wins over a stored one when it is later.
    func attribute(
        _ event: inout Event, workspace: UUID, windowDays: Int, on connection: Connection,
        earlier: (String, Date) -> (attribution: EventAttribution, time: Date)?
    ) throws {
        if let hash = event.clickTokenHash {
            guard let click = try EventStore.clickToken(hash, in: workspace, on: connection) else {
                event.attribution = .none("unknown_click_token")
                return
            }
            let platform: AppPlatform = click.platform == "android" ? .android : .ios
            var attribution =
                self.attribution(of: click.url, platform: platform, workspace: workspace, via: .clickToken)
                ?? EventAttribution(via: .clickToken)
            // The target and variant the click was given, as the token's answer keeps them.
            if let answer = try? JSONValue.parse(click.answer) {
                attribution.target = answer["target"]?.stringValue
                attribution.variant = answer["variant"]?.stringValue
            }
            (attribution.country, attribution.os) = (click.country, click.os)
            event.attribution = attribution
            return
        }
        if let url = event.url {
            guard var attribution = attribution(of: url, platform: .ios, workspace: workspace, via: .linkURL) else {
                event.attribution = .none("not_a_link")
                return
            }
            // No click linkd saw: the visitor's last click's country and OS (the install's tap), else the app's
            // platform as the OS (as uap-core names it) and no country.
            if let visitor = event.visitorID,
                let last = try last(
                    of: visitor, event: event, workspace: workspace, windowDays: windowDays, on: connection, earlier: earlier)
            {
                (attribution.country, attribution.os) = (last.attribution.country, last.attribution.os)
            } else if let app = event.app, let platform = try EventStore.platform(of: app, in: workspace, on: connection) {
                attribution.os = platform == "android" ? "Android" : "iOS"
            }
            event.attribution = attribution
            return
        }
        if let visitor = event.visitorID {
            let last = try last(of: visitor, event: event, workspace: workspace, windowDays: windowDays, on: connection, earlier: earlier)
            event.attribution =
                last.map { found in
                    var attribution = found.attribution
                    attribution.via = .visitor
                    return attribution
                } ?? .none("no_click_in_window")
            return
        }
        event.attribution = .none(event.kind == .install ? "no_click_token" : event.kind == .open ? "no_url" : "no_visitor")
    }

    /// The visitor's last click (stored, or earlier in the same request) at or before the event, within the window.
    private func last(
        of visitor: String, event: Event, workspace: UUID, windowDays: Int, on connection: Connection,
        earlier: (String, Date) -> (attribution: EventAttribution, time: Date)?
    ) throws -> (attribution: EventAttribution, time: Date)? {
        let stored = try EventStore.lastAttribution(of: visitor, in: workspace, before: event.occurredAt, days: windowDays, on: connection)
        return [stored, earlier(visitor, event.occurredAt)].compactMap { $0 }.max { $0.time < $1.time }
    }

    /// The stored link `url` leads to in `workspace`, with its campaign (the URL's `utm_*` items first); nil when no
    /// stored link of the workspace answers it.
    private func attribution(of url: String, platform: AppPlatform, workspace: UUID, via: EventAttribution.Via) -> EventAttribution? {
        guard let answer = try? resolver.answer(url, platform: platform, workspace: workspace), let link = answer.storedLink else {
            return nil
        }
        let campaign = Hit.Campaign.of(query: answer.parsed.query, link: answer.linkCampaign)
        return EventAttribution(
            via: via, linkID: link.id, utmSource: campaign?.source, utmMedium: campaign?.medium,
            utmCampaign: campaign?.campaign, utmTerm: campaign?.term, utmContent: campaign?.content,
            target: answer.target, variant: answer.variant)
    }
}
