import Foundation
import LinkKit
import Postgres

/// The SQL of `association_checks` and `association_check_schedule` (migrations/0019): each domain's last check
/// results with since-when, and when its next background check is due.
enum AssociationCheckStore {
    /// The first key of the advisory lock that serialises saving one domain's results (the second is the hash of
    /// its id), so two checks saving at once (one on demand, one in the background) see each other's states.
    static let lockClass: Int32 = 0x6C6B_6863 // "lkhc"

    /// Saves the results of the checks `kinds` of `domain`, each keeping its `since` when its state is unchanged,
    /// removes the subjects of those checks that no longer have a result, and answers every state change.
    static func save(
        _ results: [CheckResult], kinds: Set<CheckKind>, domain: UUID, at time: Date,
        on connection: Connection
    ) throws -> [CheckTransition] {
        try connection.execute("SELECT pg_advisory_xact_lock(\(lockClass)::int4, hashtext(\(domain.canonicalText)))")
        var previous: [String: CheckState] = [:]
        for row in try connection.query("SELECT check_name, subject, state FROM association_checks WHERE domain_id = \(domain)") {
            let (kind, subject, state) = try row.decode((String, String, String).self)
            previous[kind + "\u{0}" + subject] = CheckState(rawValue: state)
        }
        var transitions: [CheckTransition] = []
        var kept: Set<String> = []
        for result in results {
            let key = result.kind.rawValue + "\u{0}" + result.subject
            kept.insert(key)
            let before = previous[key]
            if before != result.state {
                transitions.append(
                    CheckTransition(
                        domainID: domain, kind: result.kind, subject: result.subject, from: before,
                        to: result.state, at: time))
            }
            try connection.execute(
                """
                INSERT INTO association_checks (domain_id, check_name, subject, state, since, checked_at, detail)
                VALUES (\(domain), \(result.kind.rawValue), \(result.subject), \(result.state.rawValue), \(time), \(time),
                        \(JSONText(result.detail.serialized))::json)
                ON CONFLICT (domain_id, check_name, subject) DO UPDATE SET
                    since = CASE WHEN association_checks.state = excluded.state THEN association_checks.since ELSE excluded.since END,
                    state = excluded.state, checked_at = excluded.checked_at, detail = excluded.detail
                """)
        }
        for (key, state) in previous.sorted(by: { $0.key < $1.key }) where !kept.contains(key) {
            let parts = key.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
            guard let kind = CheckKind(rawValue: String(parts[0])), kinds.contains(kind) else { continue }
            let subject = parts.count > 1 ? String(parts[1]) : ""
            try connection.execute(
                """
                DELETE FROM association_checks WHERE domain_id = \(domain) AND check_name = \(kind.rawValue) AND subject = \(subject)
                """)
            transitions.append(CheckTransition(domainID: domain, kind: kind, subject: subject, from: state, to: nil, at: time))
        }
        return transitions
    }

    /// The stored results of `domain`, by check and subject.
    static func all(domain: UUID, on connection: Connection) throws -> [AssociationCheck] {
        try connection.query(
            """
            SELECT check_name, subject, state, since, checked_at, detail::text FROM association_checks
            WHERE domain_id = \(domain) ORDER BY array_position(ARRAY['origin', 'apple_cdn', 'google'], check_name), subject
            """
        ).compactMap { row in
            let (kind, subject, state, since, checkedAt, detail) = try row.decode((String, String, String, Date, Date, String).self)
            guard let kind = CheckKind(rawValue: kind), let state = CheckState(rawValue: state) else { return nil }
            return AssociationCheck(
                kind: kind, subject: subject, state: state, since: since, checkedAt: checkedAt,
                detail: (try? JSONValue.parse(detail)) ?? .null)
        }
    }

    /// How many domains have a result of each check in each state (a domain whose Android apps are in two states
    /// counts in both).
    static func domainCounts(on connection: Connection) throws -> [(kind: CheckKind, state: CheckState, domains: Int)] {
        try connection.query(
            """
            SELECT check_name, state, count(DISTINCT domain_id)::int8 FROM association_checks GROUP BY check_name, state
            """
        ).compactMap { row in
            let (kind, state, count) = try row.decode((String, String, Int64).self)
            guard let kind = CheckKind(rawValue: kind), let state = CheckState(rawValue: state) else { return nil }
            return (kind, state, Int(count))
        }
    }

    // MARK: The background schedule

    /// Gives every domain without one a slot in an interval of `seconds`: a stable offset from a hash of its id, its
    /// first due time the next moment at that offset, so domains are spread evenly over the interval.
    @discardableResult
    static func schedule(interval seconds: Int, on connection: Connection) throws -> Int {
        try connection.execute(
            """
            INSERT INTO association_check_schedule (domain_id, due_at)
            SELECT d.id, to_timestamp(floor((extract(epoch FROM now()) - o.offset_s) / \(seconds)) * \(seconds) + o.offset_s + \(seconds))
            FROM domains d
            CROSS JOIN LATERAL (SELECT ((hashtext(d.id::text)::int8 + 2147483648) % \(seconds))::float8 AS offset_s) o
            WHERE NOT EXISTS (SELECT 1 FROM association_check_schedule s WHERE s.domain_id = d.id)
            ON CONFLICT (domain_id) DO NOTHING
            """)
    }

    /// Claims up to `limit` domains whose check is due, earliest first, and moves each one interval on (to the first
    /// moment of its slot after now), in one statement: rows another node is claiming are skipped, and a claimed
    /// row is not due again before its next slot. Answers their ids and hostnames.
    static func claimDue(limit: Int, interval seconds: Int, on connection: Connection) throws -> [(id: UUID, hostname: String)] {
        try connection.query(
            """
            WITH due AS (
                SELECT domain_id FROM association_check_schedule WHERE due_at <= now()
                ORDER BY due_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
            )
            UPDATE association_check_schedule s
            SET due_at = s.due_at + make_interval(secs => \(seconds) * (floor(extract(epoch FROM now() - s.due_at) / \(seconds)) + 1))
            FROM due, domains d
            WHERE s.domain_id = due.domain_id AND d.id = s.domain_id
            RETURNING s.domain_id, d.hostname
            """
        ).map { row in try row.decode((UUID, String).self) }
    }

    /// When the earliest background check is due; nil when no domain is scheduled.
    static func nextDue(on connection: Connection) throws -> Date? {
        try connection.query("SELECT min(due_at) FROM association_check_schedule").first?.decode(0, as: Date?.self)
    }

    /// When `domain`'s next background check is due; nil when it has no slot (background checks off, or not yet).
    static func due(domain: UUID, on connection: Connection) throws -> Date? {
        try connection.query("SELECT due_at FROM association_check_schedule WHERE domain_id = \(domain)").first?.decode(0, as: Date.self)
    }
}
