import Foundation
import LinkKit
import Postgres

/// The SQL of `events` (docs/EVENTS.md): the batch insert that counts an idempotency key once, and the lookups
/// attribution makes.
enum EventStore {
    /// Which of `ids` are apps of `workspace`.
    static func apps(_ ids: [UUID], of workspace: UUID, on connection: Connection) throws -> Set<UUID> {
        guard !ids.isEmpty else { return [] }
        return Set(
            try connection.query(
                """
                SELECT id FROM apps WHERE workspace_id = \(workspace) AND id = ANY(\(ids.map(\.canonicalText))::uuid[])
                """
            ).map { try $0.decode(0, as: UUID.self) })
    }

    /// The workspace's attribution window for named events, in days.
    static func windowDays(of workspace: UUID, on connection: Connection) throws -> Int {
        try connection.query("SELECT event_window_days FROM workspaces WHERE id = \(workspace)").first?.decode(0, as: Int.self) ?? 7
    }

    /// Sets the workspace's attribution window for named events; the window before.
    static func setWindowDays(_ days: Int, of workspace: UUID, on connection: Connection) throws -> Int {
        try connection.query(
            """
            UPDATE workspaces w SET event_window_days = \(days) FROM (SELECT event_window_days FROM workspaces WHERE id = \(workspace) FOR UPDATE) old
            WHERE w.id = \(workspace) RETURNING old.event_window_days
            """
        ).first?.decode(0, as: Int.self) ?? days
    }

    /// The click token of hash `hash` in `workspace`, claimed or not, expired or not (until the expiry job deletes
    /// it): the URL clicked, the platform, the resolve answer given at the click, and the click's country and OS.
    static func clickToken(
        _ hash: String, in workspace: UUID, on connection: Connection
    ) throws -> (url: String, platform: String, answer: String, country: String?, os: String?)? {
        try connection.query(
            """
            SELECT url, platform, answer::text, country, os FROM click_tokens WHERE token_hash = \(hash) AND workspace_id = \(workspace)
            """
        ).first.map { try $0.decode((String, String, String, String?, String?).self) }
    }

    /// The platform (`ios`, `android`) of app `app` of `workspace`.
    static func platform(of app: UUID, in workspace: UUID, on connection: Connection) throws -> String? {
        try connection.query("SELECT platform FROM apps WHERE id = \(app) AND workspace_id = \(workspace)").first?.decode(
            0, as: String.self)
    }

    /// The attribution of `visitor`'s last click (an event attributed through a click token or a link URL, not one
    /// attributed through the visitor, so the window runs from the click) at or before `time` and within `days` of
    /// it, with that event's time.
    static func lastAttribution(
        of visitor: String, in workspace: UUID, before time: Date, days: Int,
        on connection: Connection
    ) throws -> (attribution: EventAttribution, time: Date)? {
        let micros = Int64((time.timeIntervalSince1970 * 1_000_000).rounded())
        return try connection.query(
            """
            SELECT link_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content, target, variant, occurred_at, country, os
            FROM events
            WHERE workspace_id = \(workspace) AND visitor_id = \(visitor) AND attribution IN ('click_token', 'link_url')
              AND occurred_at <= to_timestamp(\(micros) / 1e6)
              AND occurred_at > to_timestamp(\(micros) / 1e6) - make_interval(days => \(days))
            ORDER BY occurred_at DESC LIMIT 1
            """
        ).first.map { row in
            let (link, source, medium, campaign, term, content, target, variant) =
                try row.decode((UUID?, String?, String?, String?, String?, String?, String?, String?).self)
            return (
                EventAttribution(
                    via: .visitor, linkID: link, utmSource: source, utmMedium: medium, utmCampaign: campaign,
                    utmTerm: term, utmContent: content, target: target, variant: variant,
                    country: try row.decode(9, as: String?.self), os: try row.decode(10, as: String?.self)),
                try row.decode(8, as: Date.self)
            )
        }
    }

    /// Inserts `events` of `workspace` in one statement; an idempotency key stored before is left as it was. Returns the
    /// id of each event inserted, by its idempotency key (the keys missing were duplicates).
    static func insert(_ events: [Event], workspace: UUID, on connection: Connection) throws -> [String: UUID] {
        guard !events.isEmpty else { return [:] }
        let rows = JSONValue.array(events.map(\.row)).serialized
        return Dictionary(
            uniqueKeysWithValues: try connection.query(
                """
                INSERT INTO events (workspace_id, app_id, kind, name, occurred_at, value_minor, currency, idempotency_key, visitor_id,
                                    click_token_hash, url, link_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content,
                                    target, variant, country, os, attribution, unattributed_reason)
                SELECT \(workspace), t.app, t.kind, t.name, to_timestamp(t.micros / 1e6), t.value, t.currency, t.key, t.visitor,
                       t.token, t.url, t.link, t.utm_source, t.utm_medium, t.utm_campaign, t.utm_term, t.utm_content,
                       t.target, t.variant, t.country, t.os, t.via, t.reason
                FROM json_to_recordset(\(JSONText(rows))::json) AS t(
                    app uuid, kind text, name text, micros int8, value int8, currency text, key text, visitor text, token text,
                    url text, link uuid, utm_source text, utm_medium text, utm_campaign text, utm_term text, utm_content text,
                    target text, variant text, country text, os text, via text, reason text)
                ON CONFLICT (workspace_id, idempotency_key) DO NOTHING
                RETURNING idempotency_key, id
                """
            ).map { try $0.decode((String, UUID).self) })
    }
}

extension Event {
    /// The row `EventStore.insert` reads with `json_to_recordset`.
    fileprivate var row: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let a = attribution
        return .object([
            JSONMember(key: "app", value: text(app?.canonicalText)),
            JSONMember(key: "kind", value: .string(kind.rawValue)),
            JSONMember(key: "name", value: .string(name)),
            JSONMember(key: "micros", value: .integer(Int((occurredAt.timeIntervalSince1970 * 1_000_000).rounded()))),
            JSONMember(key: "value", value: value.map { .integer(Int($0)) } ?? .null),
            JSONMember(key: "currency", value: text(currency)),
            JSONMember(key: "key", value: .string(idempotencyKey)),
            JSONMember(key: "visitor", value: text(visitorID)),
            JSONMember(key: "token", value: text(clickTokenHash)),
            JSONMember(key: "url", value: text(url)),
            JSONMember(key: "link", value: text(a.linkID?.canonicalText)),
            JSONMember(key: "utm_source", value: text(a.utmSource)),
            JSONMember(key: "utm_medium", value: text(a.utmMedium)),
            JSONMember(key: "utm_campaign", value: text(a.utmCampaign)),
            JSONMember(key: "utm_term", value: text(a.utmTerm)),
            JSONMember(key: "utm_content", value: text(a.utmContent)),
            JSONMember(key: "target", value: text(a.target)),
            JSONMember(key: "variant", value: text(a.variant)),
            JSONMember(key: "country", value: text(a.country)),
            JSONMember(key: "os", value: text(a.os)),
            JSONMember(key: "via", value: .string(a.via.rawValue)),
            JSONMember(key: "reason", value: text(a.reason)),
        ])
    }
}
