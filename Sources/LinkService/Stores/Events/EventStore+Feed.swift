import Foundation
import LinkKit
import Postgres

/// The feed of newly stored events (migrations/0035, docs/EVENTS.md "Out"): read by a cursor over
/// `(tx, seq)`, never from the insert path, so however rows land (one statement, COPY) each is read once.
extension EventStore {
    /// Where a feed reader stands: the transaction (`xid8`, as text) and sequence number of the last event it passed.
    struct FeedPosition: Sendable, Equatable {
        let tx: String
        let seq: Int64
    }

    /// The reader's position, its row locked until the transaction ends; nil when another transaction (another node's
    /// reader) holds it, which then does this pass.
    static func lockFeed(_ reader: String, on connection: Connection) throws -> FeedPosition? {
        try connection.query(
            "SELECT tx::text, seq FROM event_feed_cursors WHERE reader = \(reader) FOR UPDATE SKIP LOCKED"
        ).first.map { FeedPosition(tx: try $0.decode(0, as: String.self), seq: try $0.decode(1, as: Int64.self)) }
    }

    /// The next events after `position` that can be read for good, `limit` at most: written by transactions older
    /// than every one still running, so all committed (or gone), and none can appear before them later. Answers the
    /// position of the last and how many there are; nil when there is none yet.
    static func feedEnd(after position: FeedPosition, limit: Int, on connection: Connection) throws -> (FeedPosition, count: Int)? {
        try connection.query(
            """
            SELECT tx::text, seq, count(*) OVER ()::int8 FROM (
                SELECT tx, seq FROM events
                WHERE (tx, seq) > (\(position.tx)::xid8, \(position.seq)) AND tx < pg_snapshot_xmin(pg_current_snapshot())
                ORDER BY tx, seq LIMIT \(limit)) batch
            ORDER BY tx DESC, seq DESC LIMIT 1
            """
        ).first.map {
            (
                FeedPosition(tx: try $0.decode(0, as: String.self), seq: try $0.decode(1, as: Int64.self)),
                Int(try $0.decode(2, as: Int64.self))
            )
        }
    }

    /// The conversions (installs, opens and named events; not reopens) after `from` up to `to`, in feed order, of
    /// workspaces with an enabled subscription to `conversion.recorded`: the others' events are passed over.
    static func conversions(after from: FeedPosition, upTo to: FeedPosition, on connection: Connection) throws -> [StoredEvent] {
        try connection.query(
            """
            SELECT \(unescaped: StoredEvent.columns) FROM events e
            WHERE (e.tx, e.seq) > (\(from.tx)::xid8, \(from.seq)) AND (e.tx, e.seq) <= (\(to.tx)::xid8, \(to.seq))
              AND e.kind <> 'reopen'
              AND EXISTS (SELECT 1 FROM webhooks w WHERE w.workspace_id = e.workspace_id AND w.disabled_at IS NULL
                                                   AND 'conversion.recorded' = ANY(w.events))
            ORDER BY e.tx, e.seq
            """
        ).map(StoredEvent.init(row:))
    }

    /// Moves the reader to `position` (its row locked by `lockFeed`).
    static func moveFeed(_ reader: String, to position: FeedPosition, on connection: Connection) throws {
        try connection.execute(
            """
            UPDATE event_feed_cursors SET tx = \(position.tx)::xid8, seq = \(position.seq), updated_at = now() WHERE reader = \(reader)
            """)
    }
}
