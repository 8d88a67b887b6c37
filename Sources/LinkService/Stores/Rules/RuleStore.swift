import Foundation
import LinkKit
import Postgres

/// The SQL of `rules` and `rule_apps` (a domain's ordered list is read and written whole) and the decoding of
/// their rows.
enum RuleStore {
    /// Every rule of a domain, in order.
    static func all(domain: UUID, on connection: Connection) throws -> [StoredRule] {
        try connection.query(
            """
            SELECT r.id, r.position, r.definition, r.version, r.created_at, r.updated_at, r.app_ids::text[]
            FROM rules r WHERE r.domain_id = \(domain) ORDER BY r.position
            """
        ).map(StoredRule.init(row:))
    }

    /// Streams the rules of `domains` (every domain when nil) in one binary `COPY`, ordered by workspace, domain and
    /// position, a row each: `domain_id, id, definition, updated_at, app_ids` (the catalog load's one pass).
    static func copyOut(domains: [UUID]?, on connection: Connection, _ body: (CopyRow) -> Void) throws {
        // Domain ids are UUIDs we format, so the filter can be written into the COPY (which takes no parameters).
        let filter = domains.map { "WHERE r.domain_id IN (\($0.map { "'\($0.canonicalText)'" }.joined(separator: ",")))" } ?? ""
        _ = try connection.copyOut(
            """
            COPY (SELECT r.domain_id, r.id, r.definition, r.updated_at, r.app_ids FROM rules r \(unescaped: filter)
                  ORDER BY r.workspace_id, r.domain_id, r.position) TO STDOUT (FORMAT binary)
            """, body)
    }

    /// Makes `rules` the domain's list, in order. Rules keep their id, creation time and version unless
    /// changed (a changed rule's version is bumped); rules missing from the list are deleted.
    /// - Parameter current: the domain's rules as they are now (ids not among them are never reused).
    static func replaceAll(
        domain: Domain, current: [StoredRule], with rules: [(id: UUID, definition: RuleDefinition)], on connection: Connection
    ) throws {
        let existing = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let kept = Set(rules.map(\.id))
        for rule in current where !kept.contains(rule.id) {
            try connection.execute("DELETE FROM rules WHERE id = \(rule.id)")
        }
        for (position, rule) in rules.enumerated() {
            let before = existing[rule.id]
            let changed = before.map { $0.definition.json != rule.definition.json || $0.definition.apps != rule.definition.apps } ?? true
            try connection.execute(
                """
                INSERT INTO rules (id, workspace_id, domain_id, position, definition)
                VALUES (\(rule.id), \(domain.workspaceID), \(domain.id), \(position), \(JSONText(rule.definition.json.serialized)))
                ON CONFLICT (id) DO UPDATE SET position = excluded.position, definition = excluded.definition,
                    version = rules.version + CASE WHEN \(changed) THEN 1 ELSE 0 END,
                    updated_at = CASE WHEN \(changed) THEN now() ELSE rules.updated_at END
                """)
            if changed {
                // (One statement each: a trigger rewrites the rule's `app_ids` after each.)
                try connection.execute("DELETE FROM rule_apps WHERE rule_id = \(rule.id)")
                try connection.execute(
                    """
                    INSERT INTO rule_apps (rule_id, app_id, ordinal)
                    SELECT \(rule.id), app, ordinal - 1
                    FROM unnest(\(rule.definition.apps.map(\.canonicalText))::uuid[]) WITH ORDINALITY AS apps (app, ordinal)
                    """)
            }
        }
    }
}

extension StoredRule {
    init(row: Row) throws {
        let text: JSONText
        let apps: [String]
        id = try row.decode(0, as: UUID.self)
        position = try row.decode(1, as: Int.self)
        text = try row.decode(2, as: JSONText.self)
        version = try row.decode(3, as: Int.self)
        createdAt = try row.decode(4, as: Date.self)
        updatedAt = try row.decode(5, as: Date.self)
        apps = try row.decode(6, as: [String].self)
        definition = StoredDefinition.definition(text.json.utf8, apps: apps.compactMap(UUID.init(uuidString:)))
    }
}
