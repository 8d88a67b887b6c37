import Foundation
import LinkKit
import Postgres

/// The SQL of `events` (docs/EVENTS.md): the batch write that counts an idempotency key once, and the set-based
/// lookups attribution makes for a batch.
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

    /// The workspaces' attribution windows for named events, in days.
    static func windowDays(of workspaces: [UUID], on connection: Connection) throws -> [UUID: Int] {
        guard !workspaces.isEmpty else { return [:] }
        return Dictionary(
            uniqueKeysWithValues: try connection.query(
                "SELECT id, event_window_days FROM workspaces WHERE id = ANY(\(workspaces.map(\.canonicalText))::uuid[])"
            ).map { try $0.decode((UUID, Int).self) })
    }

    /// A click token's click as attribution reads it: its workspace, the URL clicked, the platform, the resolve answer
    /// given at the click, and the click's country and OS.
    typealias TokenClick = (workspace: UUID, url: String, platform: String, answer: String, country: String?, os: String?)

    /// The click tokens of hashes `hashes`, claimed or not, expired or not (until the expiry job deletes them), by hash.
    static func clickTokens(_ hashes: [String], on connection: Connection) throws -> [String: TokenClick] {
        guard !hashes.isEmpty else { return [:] }
        var found: [String: TokenClick] = [:]
        for row in try connection.query(
            """
            SELECT token_hash, workspace_id, url, platform, answer::text, country, os FROM click_tokens
            WHERE token_hash = ANY(\(hashes)::text[])
            """)
        {
            let (hash, workspace, url, platform, answer, country, os) =
                try row.decode((String, UUID, String, String, String, String?, String?).self)
            found[hash] = (workspace, url, platform, answer, country, os)
        }
        return found
    }

    /// The platform (`ios`, `android`) of each of `apps`, by app.
    static func platforms(of apps: [UUID], on connection: Connection) throws -> [UUID: String] {
        guard !apps.isEmpty else { return [:] }
        return Dictionary(
            uniqueKeysWithValues: try connection.query(
                "SELECT id, platform FROM apps WHERE id = ANY(\(apps.map(\.canonicalText))::uuid[])"
            ).map { try $0.decode((UUID, String).self) })
    }

    /// For each lookup (a visitor of a workspace at a time, with the workspace's window in days), the attribution of
    /// the visitor's last click (an event attributed through a click token or a link URL, not one attributed through
    /// the visitor, so the window runs from the click) at or before the time and within the window, with its time;
    /// by the lookup's index. One statement for the whole batch; every column of the row is read back
    /// (`EventColumns.attribution(fromRow:)`).
    static func lastAttributions(
        _ lookups: [(workspace: UUID, visitor: String, time: Date, days: Int)], on connection: Connection
    ) throws -> [Int: (attribution: EventAttribution, time: Date)] {
        guard !lookups.isEmpty else { return [:] }
        var found: [Int: (attribution: EventAttribution, time: Date)] = [:]
        // One index probe per lookup (`events_visitor`): a table whose statistics are older than its rows (a new one, or
        // one that grew since autovacuum last analyzed it) is otherwise scanned whole for each lookup.
        _ = try connection.execute("SET LOCAL enable_seqscan = off")
        defer { _ = try? connection.execute("SET LOCAL enable_seqscan = on") }
        for row in try connection.query(
            """
            SELECT t.i::int8, row_to_json(e)::text, e.occurred_at
            FROM unnest(\(lookups.map(\.workspace.canonicalText))::uuid[], \(lookups.map(\.visitor))::text[],
                        \(lookups.map { Int64(($0.time.timeIntervalSince1970 * 1_000_000).rounded()) })::int8[],
                        \(lookups.map(\.days))::int[]) WITH ORDINALITY AS t(workspace, visitor, micros, days, i)
            CROSS JOIN LATERAL (
                SELECT * FROM events
                WHERE workspace_id = t.workspace AND visitor_id = t.visitor AND attribution IN ('click_token', 'link_url')
                  AND occurred_at <= to_timestamp(t.micros / 1e6)
                  AND occurred_at > to_timestamp(t.micros / 1e6) - make_interval(days => t.days)
                ORDER BY occurred_at DESC LIMIT 1) e
            """)
        {
            let (index, json, time) = try row.decode((Int, String, Date).self)
            found[index - 1] = (try EventColumns.attribution(fromRow: json), time)
        }
        return found
    }

    /// Writes `records` (attributed, one per idempotency key) in the caller's transaction. An idempotency key stored
    /// before is left as it was: the rows are copied straight into `events` (binary `COPY`, `EventCopyData`, under a
    /// savepoint), and only when that meets a key already stored are they copied into a temporary table and moved with
    /// `INSERT … ON CONFLICT DO NOTHING`. Every field of `Event` is written. Returns how many were new.
    @discardableResult
    static func write(_ records: [EventRecord], on connection: Connection) throws -> Int {
        guard !records.isEmpty else { return 0 }
        let columns = EventCopyData.columns.joined(separator: ", ")
        let data = EventCopyData(records: records[...])
        _ = try connection.execute("SAVEPOINT events_copy")
        let copied: Int
        do {
            copied = try connection.copyFrom("COPY events (\(unescaped: columns)) FROM STDIN (FORMAT binary)", data: data)
        } catch {
            guard error.sqlState == .uniqueViolation else { throw error }
            _ = try connection.execute("ROLLBACK TO SAVEPOINT events_copy")
            return try writeSkippingStored(data, columns: columns, on: connection)
        }
        _ = try connection.execute("RELEASE SAVEPOINT events_copy")
        return copied
    }

    /// The rows of `write` through a temporary table, those whose key is stored already left out.
    private static func writeSkippingStored(_ data: EventCopyData, columns: String, on connection: Connection) throws -> Int {
        // Only the columns written: the table's own (`seq`, `tx`, the defaults) are the final insert's.
        _ = try connection.execute("CREATE TEMP TABLE events_in ON COMMIT DROP AS SELECT \(unescaped: columns) FROM events WITH NO DATA")
        _ = try connection.copyFrom("COPY events_in (\(unescaped: columns)) FROM STDIN (FORMAT binary)", data: data)
        return try connection.execute(
            """
            INSERT INTO events (\(unescaped: columns)) SELECT \(unescaped: columns) FROM events_in
            ON CONFLICT (workspace_id, idempotency_key) DO NOTHING
            """)
    }
}
