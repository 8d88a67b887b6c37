import Foundation
import LinkKit
import Postgres

/// The SQL of `audit_log`: who changed what, written in the same transaction as the change itself.
enum AuditStore {
    enum Action: String {
        case create, update, delete, replace
    }

    /// Records the entry, naming its actor as it is called now (a key's name, else its prefix; a person's email) and
    /// the client address it came from, and keeps its id for the rest of the transaction in the setting `linkd.audit_id`
    /// (transaction-local): the association version a write causes names the write's entry
    /// (`AssociationVersionStore.insert`) without every handler handing the id on.
    static func record(
        on connection: Connection, _ principal: Principal, _ action: Action, type: String, id: String,
        before: JSONValue? = nil, after: JSONValue? = nil
    ) throws {
        try connection.execute(
            """
            WITH entry AS (
                INSERT INTO audit_log (workspace_id, key_id, person_id, actor_name, address, action, resource_type, resource_id, before, after)
                VALUES (\(principal.workspaceID), \(principal.keyID), \(principal.personID),
                        coalesce((SELECT coalesce(nullif(k.name, ''), k.prefix) FROM api_keys k WHERE k.id = \(principal.keyID)),
                                 (SELECT p.email FROM people p WHERE p.id = \(principal.personID))),
                        \(principal.address), \(action.rawValue), \(type), \(id),
                        \(before.map { JSONText(storable($0).serialized) }), \(after.map { JSONText(storable($0).serialized) }))
                RETURNING id)
            SELECT set_config(\(auditIDSetting), id::text, true) FROM entry
            """)
    }

    /// `value` with each number `jsonb` cannot hold (`JSONNumber.isInRange`) as its text, a string: a row can hold
    /// one in its `json` columns only when written by other means than the API (which refuses them), and its
    /// change or deletion must still be recorded.
    static func storable(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let text) where !JSONNumber.isInRange(text): .string(text)
        case .array(let elements): .array(elements.map(storable))
        case .object(let members): .object(members.map { JSONMember(key: $0.key, value: storable($0.value)) })
        case .null, .bool, .number, .string: value
        }
    }

    /// The transaction-local setting holding the id of the transaction's last audit entry.
    static let auditIDSetting = "linkd.audit_id"

    /// What a page of entries is narrowed to: a kind of resource, one link (its id), one webhook subscription (its id:
    /// its own changes and its deliveries' retries), one person (their changes, signed in or through a key they
    /// created), one key.
    struct Filter {
        var type: String?
        var link: UUID?
        var webhook: UUID?
        var person: UUID?
        var key: UUID?
    }

    /// Up to `limit` of `workspace`'s entries matching `filter`, newest first, from before the identity `before` (the
    /// keyset of `GET /v1/audit`), with the resource's name (`nameSQL`).
    static func page(workspace: UUID, before: Int64?, filter: Filter, limit: Int, on connection: Connection) throws -> [AuditEntry] {
        let link = filter.link?.canonicalText
        let webhook = filter.webhook?.canonicalText
        return try connection.query(
            """
            SELECT e.id, e.key_id, e.at, e.action, e.resource_type, e.resource_id, e.before, e.after, \(unescaped: nameSQL),
                   e.person_id, e.actor_name, e.address
            FROM audit_log e
            WHERE e.workspace_id = \(workspace) AND (\(before)::int8 IS NULL OR e.id < \(before))
              AND (\(filter.type)::text IS NULL OR e.resource_type = \(filter.type))
              AND (\(filter.person)::uuid IS NULL OR e.person_id = \(filter.person))
              AND (\(filter.key)::uuid IS NULL OR e.key_id = \(filter.key))
              AND (\(link)::text IS NULL OR (e.resource_type = 'link' AND e.resource_id = \(link)))
              AND (\(webhook)::text IS NULL OR (e.resource_type = 'webhook' AND e.resource_id = \(webhook))
                   OR (e.resource_type = 'webhook_delivery'
                       AND e.resource_id IN (SELECT id::text FROM webhook_outbox WHERE webhook_id::text = \(webhook))))
            ORDER BY e.id DESC LIMIT \(limit)
            """
        ).map(AuditEntry.init(row:))
    }

    /// The name people know an entry's resource by, from the entry itself (each member after the change, else before
    /// it: a secret's rotation records only that it happened): a link's `domain/slug`, an app's name and platform, a
    /// destination's title and type with its app's name and platform (the app as it is now), a webhook's URL, a key's or
    /// team's name; for a delivery retried, its subscription's URL. NULL when the entry holds none (a bulk create, which
    /// names no single link).
    private static let nameSQL: String = {
        func member(_ name: String) -> String { "coalesce(e.after::jsonb->>'\(name)', e.before::jsonb->>'\(name)')" }
        func platform(_ value: String) -> String { "CASE \(value) WHEN 'ios' THEN 'iOS' ELSE 'Android' END" }
        return """
            CASE e.resource_type
                WHEN 'link' THEN \(member("domain")) || '/' || \(member("slug"))
                WHEN 'app' THEN \(member("name")) || ' (' || \(platform(member("platform"))) || ')'
                WHEN 'destination' THEN coalesce(\(member("title")), \(member("name"))) || ' (' || \(member("name")) || ')'
                    || coalesce((SELECT ' · ' || a.name || ' (' || \(platform("a.platform")) || ')' FROM apps a
                                 WHERE a.id::text = split_part(e.resource_id, '/', 1) AND a.workspace_id = e.workspace_id), '')
                WHEN 'webhook' THEN \(member("url"))
                WHEN 'webhook_delivery' THEN (SELECT w.url FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id
                                              WHERE o.id::text = e.resource_id)
                WHEN 'key' THEN \(member("name"))
                WHEN 'team' THEN coalesce(\(member("name")), \(member("teamId")))
            END AS resource_name
            """
    }()
}
