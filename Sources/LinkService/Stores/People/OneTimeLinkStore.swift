import Foundation
import Postgres

/// The SQL of `one_time_links`: the links that set a first password or reset one, each used once before its end.
enum OneTimeLinkStore {
    /// What a link is for (`one_time_links.purpose`).
    enum Purpose: String, Sendable {
        case setPassword = "set-password"
        case resetPassword = "reset-password"
    }

    /// A new link of `purpose` for `person`, valid for `ttl` seconds; its token is shown once.
    static func create(person: UUID, purpose: Purpose, ttl: Int, on connection: Connection) throws -> SecretToken {
        let token = SecretToken.generate()
        try connection.execute(
            """
            INSERT INTO one_time_links (token_hash, person_id, purpose, expires_at)
            VALUES (\(token.hash), \(person), \(purpose.rawValue), now() + make_interval(secs => \(Double(ttl))))
            """)
        return token
    }

    /// The person a live link (unused, before its end) is for, with their email, without using it.
    static func peek(_ token: SecretToken, on connection: Connection) throws -> (person: UUID, email: String)? {
        try connection.query(
            """
            SELECT p.id, p.email FROM one_time_links l JOIN people p ON p.id = l.person_id
            WHERE l.token_hash = \(token.hash) AND l.used_at IS NULL AND l.expires_at > now()
            """
        ).first.map { try $0.decode((UUID, String).self) }
    }

    /// Uses the live link of `token`: marks it used and returns its person and purpose; nil when the link is
    /// unknown, used or past its end. Of two concurrent uses, one gets nil.
    static func consume(_ token: SecretToken, on connection: Connection) throws -> (person: UUID, purpose: Purpose)? {
        try connection.query(
            """
            UPDATE one_time_links SET used_at = now()
            WHERE token_hash = \(token.hash) AND used_at IS NULL AND expires_at > now()
            RETURNING person_id, purpose
            """
        ).first.flatMap { row in
            let (person, purpose) = try row.decode((UUID, String).self)
            return Purpose(rawValue: purpose).map { (person, $0) }
        }
    }

    /// Whether `person` was given a link for `purpose` within the last `seconds` (a reset asked again soon is
    /// not mailed again).
    static func recent(person: UUID, purpose: Purpose, within seconds: TimeInterval, on connection: Connection) throws -> Bool {
        try !connection.query(
            """
            SELECT 1 FROM one_time_links
            WHERE person_id = \(person) AND purpose = \(purpose.rawValue) AND created_at > now() - make_interval(secs => \(seconds))
            LIMIT 1
            """
        ).isEmpty
    }
}
