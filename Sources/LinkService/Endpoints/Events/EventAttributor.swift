import Foundation
import LinkKit
import Postgres

/// The last-click model of docs/EVENTS.md, "Attribution", for a batch of events at once (the writer's, `EventBatcher`):
/// an event carrying a click token is attributed through the token's click (the link, campaign, target and variant it
/// was given); one carrying the URL the app was opened with, through that URL resolved as a click is (`Resolver`, the
/// stored link and its campaign, the URL's `utm_*` first); any other with a visitor id, to the visitor's last click
/// within the workspace's window, stored or in the batch; otherwise none, with the reason. Deterministic only: nothing
/// about the device is matched. The country and OS an event is counted under are its click's (the token's, the
/// visitor's last; for a link URL, which linkd saw no click of, the visitor's last click's, else the app's OS). The
/// database is asked once per kind of lookup for the whole batch (`EventStore`).
struct EventAttributor {
    let resolver: Resolver

    private typealias Click = (attribution: EventAttribution, time: Date)

    /// Attributes every event of `records`.
    func attribute(_ records: inout [EventRecord], on connection: Connection) throws {
        let tokens = try EventStore.clickTokens(Array(Set(records.compactMap(\.event.clickTokenHash))), on: connection)
        // Those that read the visitor's last click: events attributed through it, and link URLs for its country and OS.
        var pending: [Int] = []
        for index in records.indices {
            let workspace = records[index].workspace
            let event = records[index].event
            if let hash = event.clickTokenHash {
                records[index].event.attribution = attribution(
                    ofToken: tokens[hash].flatMap { $0.workspace == workspace ? $0 : nil }, workspace)
            } else if let url = event.url {
                guard let found = attribution(of: url, platform: .ios, workspace: workspace, via: .linkURL) else {
                    records[index].event.attribution = .none("not_a_link")
                    continue
                }
                records[index].event.attribution = found
                pending.append(index)
            } else if event.visitorID != nil {
                pending.append(index)
            } else {
                records[index].event.attribution = .none(
                    event.kind == .install ? "no_click_token" : event.kind == .open ? "no_url" : "no_visitor")
            }
        }
        guard !pending.isEmpty else { return }
        let windows = try EventStore.windowDays(of: Array(Set(pending.map { records[$0].workspace })), on: connection)
        let visitors = pending.filter { records[$0].event.visitorID != nil }
        let lookups: [(workspace: UUID, visitor: String, time: Date, days: Int)] = visitors.map { index in
            let record = records[index]
            return (record.workspace, record.event.visitorID!, record.event.occurredAt, windows[record.workspace] ?? 7)
        }
        let found = try EventStore.lastAttributions(lookups, on: connection)
        var stored: [Int: Click] = [:]
        for (lookup, index) in visitors.enumerated() { stored[index] = found[lookup] }
        let apps = Array(Set(pending.compactMap { records[$0].event.url != nil ? records[$0].event.app : nil }))
        let platforms = try EventStore.platforms(of: apps, on: connection)
        // The batch's own clicks, by workspace and visitor, in time order: an event is placed by its time, not by when
        // it arrived, and a link URL's country and OS (from an earlier click) are known before a later event reads it.
        var clicks: [String: [Click]] = [:]
        for index in records.indices where records[index].event.attribution.via == .clickToken {
            guard let visitor = records[index].event.visitorID else { continue }
            clicks["\(records[index].workspace.canonicalText)/\(visitor)", default: []].append(
                (records[index].event.attribution, records[index].event.occurredAt))
        }
        for index in pending.sorted(by: { records[$0].event.occurredAt < records[$1].event.occurredAt }) {
            let record = records[index]
            let days = windows[record.workspace] ?? 7
            let key = record.event.visitorID.map { "\(record.workspace.canonicalText)/\($0)" }
            var last: Click? = stored[index]
            let earliest = record.event.occurredAt.addingTimeInterval(-Double(days) * 86_400)
            for click in key.flatMap({ clicks[$0] }) ?? []
            where click.time <= record.event.occurredAt && click.time > earliest && click.time > (last?.time ?? .distantPast) {
                last = click
            }
            if record.event.url != nil {
                var attribution = record.event.attribution
                if let last {
                    (attribution.country, attribution.os) = (last.attribution.country, last.attribution.os)
                } else if let app = record.event.app, let platform = platforms[app] {
                    attribution.os = platform == "android" ? "Android" : "iOS"
                }
                records[index].event.attribution = attribution
                if let key { clicks[key, default: []].append((attribution, record.event.occurredAt)) }
            } else {
                records[index].event.attribution =
                    last.map { found in
                        var attribution = found.attribution
                        attribution.via = .visitor
                        return attribution
                    } ?? .none("no_click_in_window")
            }
        }
    }

    /// Through a click token's click (nil: a token linkd does not know in the event's workspace): its URL resolved,
    /// with the target and variant the click was given, as the token's answer keeps them, and the click's country and OS.
    private func attribution(ofToken click: EventStore.TokenClick?, _ workspace: UUID) -> EventAttribution {
        guard let click else { return .none("unknown_click_token") }
        let platform: AppPlatform = click.platform == "android" ? .android : .ios
        var attribution =
            self.attribution(of: click.url, platform: platform, workspace: workspace, via: .clickToken)
            ?? EventAttribution(via: .clickToken)
        if let answer = try? JSONValue.parse(click.answer) {
            attribution.target = answer["target"]?.stringValue
            attribution.variant = answer["variant"]?.stringValue
        }
        (attribution.country, attribution.os) = (click.country, click.os)
        return attribution
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
