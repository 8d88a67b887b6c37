import Foundation
import Postgres

/// The SQL of `click_tokens` (deferred deep links, `ClickTokens`): tokens are stored by their hash only.
enum ClickTokenStore {
    /// Inserts one row per element of the columns (all equally long; ids and the answer as text, times in
    /// microseconds since 1970); rows of a domain deleted meanwhile are left out, a hash already stored is kept.
    static func insert(
        hashes: [String], workspaces: [String], domains: [String], urls: [String], platforms: [String], answers: [String],
        createdMicros: [Int64], expiresMicros: [Int64], on connection: Connection
    ) throws {
        try connection.execute(
            """
            INSERT INTO click_tokens (token_hash, workspace_id, domain_id, url, platform, answer, created_at, expires_at)
            SELECT t.h, t.w::uuid, t.d::uuid, t.u, t.p, t.a::json, to_timestamp(t.c / 1e6), to_timestamp(t.e / 1e6)
            FROM unnest(\(hashes)::text[], \(workspaces)::text[], \(domains)::text[], \(urls)::text[], \(platforms)::text[],
                        \(answers)::text[], \(createdMicros)::int8[], \(expiresMicros)::int8[])
                AS t(h, w, d, u, p, a, c, e)
            WHERE EXISTS (SELECT 1 FROM domains WHERE id = t.d::uuid)
            ON CONFLICT (token_hash) DO NOTHING
            """)
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
