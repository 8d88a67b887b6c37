import Foundation
import LinkKit
import Postgres

/// One reported event (`POST /v1/events`, docs/EVENTS.md) as read and attributed, before it is stored.
struct Event: Sendable, Equatable, Codable {
    enum Kind: String, Sendable, CaseIterable, Codable {
        case install, open, reopen, named
    }

    var app: UUID?
    var kind: Kind
    /// `install`, `open`, `reopen`, or the named event's name.
    var name: String
    var occurredAt: Date
    /// An amount in minor units with its ISO 4217 currency, both or neither.
    var value: Int64?
    var currency: String?
    var idempotencyKey: String
    var visitorID: String?
    /// The click token as sent, kept as its SHA-256 only.
    var clickTokenHash: String?
    var url: String?
    var attribution = EventAttribution.none("not_attributed")
}

/// What an event is attributed to: the stored link (nil when a rule alone decided the URL), its campaign, target and
/// variant, the country and OS of the click it is counted under, and through what (`via`); or nothing, with the reason.
struct EventAttribution: Sendable, Equatable, Codable {
    enum Via: String, Sendable, Codable {
        case clickToken = "click_token", linkURL = "link_url", visitor, none
    }

    var via: Via
    var linkID: UUID?
    var utmSource: String?
    var utmMedium: String?
    var utmCampaign: String?
    var utmTerm: String?
    var utmContent: String?
    var target: String?
    var variant: String?
    /// The click's country (ISO 3166-1 alpha-2) and OS family (uap-core's name), as its hit has them: a click token's
    /// click, the visitor's last click; for an open through a link URL (no click linkd saw), the OS of the event's app.
    var country: String? = nil
    var os: String? = nil
    /// With `via == .none` only.
    var reason: String?

    static func none(_ reason: String) -> EventAttribution { EventAttribution(via: .none, reason: reason) }

    /// The answer's `attribution` member.
    var json: JSONValue {
        var members: [JSONMember] = [JSONMember(key: "via", value: .string(via.rawValue))]
        func put(_ key: String, _ value: String?) {
            if let value { members.append(JSONMember(key: key, value: .string(value))) }
        }
        put("link", linkID?.canonicalText)
        var campaign: [JSONMember] = []
        for (key, value) in [
            ("source", utmSource), ("medium", utmMedium), ("campaign", utmCampaign), ("term", utmTerm), ("content", utmContent),
        ] {
            if let value { campaign.append(JSONMember(key: key, value: .string(value))) }
        }
        if !campaign.isEmpty { members.append(JSONMember(key: "campaign", value: .object(campaign))) }
        put("target", target)
        put("variant", variant)
        put("country", country)
        put("os", os)
        put("reason", reason)
        return .object(members)
    }
}
