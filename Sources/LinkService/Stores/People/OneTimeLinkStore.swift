import Foundation
import Postgres

/// The SQL of `one_time_links`: a link that sets or resets a person's password, used once, before its end.
enum OneTimeLinkStore {
    enum Purpose: String, Sendable {
        case setPassword = "set-password"
        case resetPassword = "reset-password"
    }

    /// A new link of `person` for `purpose`, valid for `ttl`; its token (shown once, stored as its SHA-256).
    static func create(person: UUID, purpose: Purpose, ttl: TimeInterval, on connection: Connection) throws -> SecretToken {
        let token = SecretToken.generate()
        try connection.execute("""
            INSERT INTO one_time_links (token_hash, person_id, purpose, expires_at)
            VALUES (\(token.hash), \(person), \(purpose.rawValue), now() + make_interval(secs => \(ttl)))
            """)
        return token
    }

    /// Uses the link of `token` for `purpose`: the person it is for, when it is unused and before its end; nil
    /// otherwise. Used once: a second call with the same token finds nothing.
    static func consume(_ token: SecretToken, purpose: Purpose, on connection: Connection) throws -> UUID? {
        try connection.query("""
            UPDATE one_time_links SET used_at = now()
            WHERE token_hash = \(token.hash) AND purpose = \(purpose.rawValue) AND used_at IS NULL AND expires_at > now()
            RETURNING person_id
            """).first.map { try $0.decode(0, as: UUID.self) }
    }

    /// Whether `person` was given a link for `purpose` within the last `seconds` (a reset asked again soon is
    /// not mailed again).
    static func recent(person: UUID, purpose: Purpose, within seconds: TimeInterval, on connection: Connection) throws -> Bool {
        try !connection.query("""
            SELECT 1 FROM one_time_links
            WHERE person_id = \(person) AND purpose = \(purpose.rawValue) AND created_at > now() - make_interval(secs => \(seconds))
            LIMIT 1
            """).isEmpty
    }
}
