import Foundation
import LinkKit
import Postgres

/// What leaves `events` other than by the feed: the retention's old events and a visitor's events on request
/// (docs/EVENTS.md, "Retention" and "Erasure").
extension EventStore {
    /// The workspaces, whose events the retention goes through one by one (each through the index by time).
    static func workspaces(on connection: Connection) throws -> [UUID] {
        try connection.query("SELECT id FROM workspaces ORDER BY id").map { try $0.decode(0, as: UUID.self) }
    }

    /// Deletes up to `limit` events of `workspace` that happened before `cutoff` and that the `conversion.recorded`
    /// feed has passed (one stored late, with an old time, is told before it goes). Returns how many were deleted.
    static func prune(workspace: UUID, before cutoff: Date, limit: Int, on connection: Connection) throws -> Int {
        try connection.execute(
            """
            DELETE FROM events WHERE id IN (
                SELECT id FROM events
                WHERE workspace_id = \(workspace) AND occurred_at < \(cutoff)
                  AND (tx, seq) <= (SELECT tx, seq FROM event_feed_cursors WHERE reader = 'conversion.recorded')
                LIMIT \(limit))
            """)
    }

    /// What an erasure deleted.
    struct Erased: Sendable, Equatable {
        var events = 0
        var clickTokens = 0
    }

    /// Deletes every event of `visitor` in `workspace` and the click tokens those events came with (what ties a
    /// click to the person). Waits for the feed's cursor first, so that a pass reading the visitor's events now either
    /// queued them before (and the caller deletes those deliveries after) or does not see them.
    static func erase(visitor: String, workspace: UUID, on connection: Connection) throws -> Erased {
        _ = try connection.query("SELECT 1 FROM event_feed_cursors FOR UPDATE")
        let row = try connection.query(
            """
            WITH gone AS (
                DELETE FROM events WHERE workspace_id = \(workspace) AND visitor_id = \(visitor) RETURNING click_token_hash),
            tokens AS (
                DELETE FROM click_tokens WHERE workspace_id = \(workspace)
                  AND token_hash IN (SELECT click_token_hash FROM gone WHERE click_token_hash IS NOT NULL)
                RETURNING 1)
            SELECT (SELECT count(*) FROM gone)::int8, (SELECT count(*) FROM tokens)::int8
            """
        ).first
        return Erased(events: Int(try row?.decode(0, as: Int64.self) ?? 0), clickTokens: Int(try row?.decode(1, as: Int64.self) ?? 0))
    }
}
