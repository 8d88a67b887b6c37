import Foundation
import Postgres

/// The SQL of `click_tokens` (deferred deep links, `ClickTokens`): tokens are stored by their hash only.
enum ClickTokenStore {
    /// The columns of the rows `copy` and `insertNew` take, in order: each row one `COPY` text line (tab-separated,
    /// escaped; the answer as JSON text, times as `timestamptz` text).
    static let columns = "token_hash, workspace_id, domain_id, url, platform, answer, country, os, created_at, expires_at"

    /// Stores `rows` (whole `COPY` text lines, `columns`) with one `COPY`: the cheap way, which refuses the whole
    /// batch when one row's hash is stored already or its domain was deleted meanwhile (`insertNew` then).
    static func copy(_ rows: [[UInt8]], on connection: Connection) throws {
        _ = try connection.copyFrom("COPY click_tokens (\(unescaped: columns)) FROM STDIN", data: chunks(of: rows))
    }

    /// Stores the rows of `rows` whose hash is not stored yet and whose domain still exists, in one transaction (a
    /// `COPY` into a temporary table, then one insert from it).
    static func insertNew(_ rows: [[UInt8]], on connection: Connection) throws {
        try connection.execute("CREATE TEMPORARY TABLE click_tokens_incoming (LIKE click_tokens) ON COMMIT DROP")
        _ = try connection.copyFrom("COPY click_tokens_incoming (\(unescaped: columns)) FROM STDIN", data: chunks(of: rows))
        try connection.execute(
            """
            INSERT INTO click_tokens (\(unescaped: columns))
            SELECT \(unescaped: columns) FROM click_tokens_incoming t
            WHERE EXISTS (SELECT 1 FROM domains WHERE id = t.domain_id)
            ON CONFLICT (token_hash) DO NOTHING
            """)
    }

    /// `rows` in chunks of about 64 KiB, as `copyFrom(_:data:)` sends them.
    private static func chunks(of rows: [[UInt8]]) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var chunk: [UInt8] = []
        for row in rows {
            if chunk.count + row.count > 64 * 1024, !chunk.isEmpty {
                chunks.append(chunk)
                chunk = []
            }
            if chunk.isEmpty { chunk.reserveCapacity(64 * 1024) }
            chunk += row
        }
        if !chunk.isEmpty { chunks.append(chunk) }
        return chunks
    }

    /// Deletes the tokens that expired more than `grace` seconds ago; returns how many.
    static func deleteExpired(grace: TimeInterval, on connection: Connection) throws -> Int {
        try connection.query(
            """
            WITH gone AS (DELETE FROM click_tokens WHERE expires_at < now() - make_interval(secs => \(grace)) RETURNING 1)
            SELECT count(*)::int8 FROM gone
            """
        ).first!.decode(0, as: Int.self)
    }

    /// Claims the unexpired, unclaimed token `hash`: its link, platform, workspace and answer; nil when it cannot be claimed.
    static func claim(_ hash: String, on connection: Connection) throws -> (url: String, platform: String, workspace: UUID, answer: String)?
    {
        try connection.query(
            """
            UPDATE click_tokens SET claimed_at = now()
            WHERE token_hash = \(hash) AND claimed_at IS NULL AND expires_at > now()
            RETURNING url, platform, workspace_id, answer::text
            """
        ).first.map { try $0.decode((String, String, UUID, String).self) }
    }

    /// Whether the token `hash` was claimed and whether it expired; nil when there is no such token.
    static func state(of hash: String, on connection: Connection) throws -> (claimed: Bool, expired: Bool)? {
        try connection.query(
            """
            SELECT claimed_at IS NOT NULL, expires_at <= now() FROM click_tokens WHERE token_hash = \(hash)
            """
        ).first.map { try $0.decode((Bool, Bool).self) }
    }
}
