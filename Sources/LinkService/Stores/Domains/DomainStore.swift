import Foundation
import LinkKit
import Postgres

/// The SQL of `domains` (and of the fetch log a domain shows) and the decoding of its rows.
enum DomainStore: ResourceStore {
    typealias Resource = Domain
    static let table = "domains"
    static let columns =
        "id, workspace_id, hostname, settings, version, created_at, updated_at, (extract(epoch FROM created_at) * 1000000)::int8"
    static let address = (key: "hostname", owner: "workspace_id")

    static func insert(_ hostname: String, settings: DomainSettingsRecord, workspace: UUID, on connection: Connection) throws -> Domain {
        try insert("workspace_id, hostname, settings", [workspace, hostname, JSONText(settings.json.serialized)], on: connection)
    }

    /// Saves new settings as the domain's next version.
    static func save(_ id: UUID, settings: DomainSettingsRecord, on connection: Connection) throws -> Domain {
        try update(id, set: "settings = $2", [JSONText(settings.json.serialized)], on: connection)
    }

    /// Every domain (`hostnames` nil) or the named ones.
    static func all(hostnames: [String]?, on connection: Connection) throws -> [Domain] {
        if let hostnames {
            return try connection.query("SELECT \(unescaped: columns) FROM domains WHERE hostname = ANY(\(hostnames)::text[])")
                .map(Domain.init(row:))
        }
        return try connection.query("SELECT \(unescaped: columns) FROM domains").map(Domain.init(row:))
    }

    /// Every domain of `workspace`.
    static func all(workspace: UUID, on connection: Connection) throws -> [Domain] {
        try connection.query("SELECT \(unescaped: columns) FROM domains WHERE workspace_id = \(workspace)")
            .map(Domain.init(row:))
    }

    /// Waits for the transaction-level advisory lock `key` (`DomainClaims.lockKey`), held until the transaction ends.
    static func lockRegistrations(_ key: Int64, on connection: Connection) throws {
        _ = try connection.query("SELECT pg_advisory_xact_lock(\(key))")
    }

    /// Whether any workspace has registered `hostname`.
    static func isRegistered(_ hostname: String, on connection: Connection) throws -> Bool {
        try connection.query("SELECT 1 FROM domains WHERE hostname = \(hostname)").count > 0
    }

    /// Whether a workspace other than `workspace` has registered one of `hostnames`.
    static func isAnyRegistered(_ hostnames: [String], byOtherThan workspace: UUID, on connection: Connection) throws -> Bool {
        try connection.query(
            """
            SELECT 1 FROM domains WHERE hostname = ANY(\(hostnames)::text[]) AND workspace_id <> \(workspace) LIMIT 1
            """
        ).count > 0
    }

    /// Whether a workspace other than `workspace` has registered `root` or a name under it; `domains_reversed_hostname`
    /// (migrations/0009) finds the names under it by prefix.
    static func isAnyRegistered(atOrUnder root: String, byOtherThan workspace: UUID, on connection: Connection) throws -> Bool {
        try connection.query(
            """
            SELECT 1 FROM domains
            WHERE workspace_id <> \(workspace) AND (hostname = \(root) OR reverse(hostname) LIKE reverse(\(root)::text) || '.%')
            LIMIT 1
            """
        ).count > 0
    }

    /// The id of the domain `hostname` of `workspace` whose rules name `app` (`App.primaryDomain`), nil for none.
    static func id(of hostname: String, namingApp app: UUID?, workspace: UUID, on connection: Connection) throws -> UUID? {
        try connection.query(
            """
            SELECT d.id FROM domains d WHERE d.workspace_id = \(workspace) AND d.hostname = \(hostname)
              AND EXISTS (SELECT 1 FROM rule_apps ra JOIN rules r ON r.id = ra.rule_id WHERE r.domain_id = d.id AND ra.app_id = \(app))
            """
        ).first?.decode(0, as: UUID.self)
    }

    /// Keeps a fetch of an association file as the host's last fetch of that file unless a later one is kept.
    static func recordFetch(
        hostname: String, file: String, at: Date, userAgent: String, etag: String?, status: Int,
        on connection: Connection
    ) throws {
        try connection.execute(
            """
            INSERT INTO association_fetches (hostname, file, fetched_at, user_agent, etag, status)
            VALUES (\(hostname), \(file), \(at), \(userAgent), \(etag), \(status))
            ON CONFLICT (hostname, file) DO UPDATE SET fetched_at = excluded.fetched_at, user_agent = excluded.user_agent,
                etag = excluded.etag, status = excluded.status
            WHERE association_fetches.fetched_at <= excluded.fetched_at
            """)
    }

    /// The last fetch of each of the domain's association files, by file name.
    static func lastFetches(_ hostname: String, on connection: Connection) throws -> [JSONMember] {
        try connection.query(
            """
            SELECT file, fetched_at, user_agent, etag, status FROM association_fetches
            WHERE hostname = \(hostname) ORDER BY file
            """
        ).map { row in
            JSONMember(
                key: try row.decode(0, as: String.self),
                value: JSONValue.object([
                    "at": .timestamp(try row.decode(1, as: Date.self)),
                    "userAgent": .string(try row.decode(2, as: String.self)),
                    "etag": .optional(try row.decode(3, as: String?.self)),
                    "status": .integer(try row.decode(4, as: Int.self)),
                ]).compacted)
        }
    }
}

extension Domain {
    init(row: Row) throws {
        let settings: JSONText
        (id, workspaceID, hostname, settings, version, createdAt, updatedAt, sortMicros) =
            try row.decode((UUID, UUID, String, JSONText, Int, Date, Date, Int64).self)
        self.settings = DomainSettingsRecord(stored: (try? JSONValue.parse(settings.json)) ?? .object([]))
    }
}
