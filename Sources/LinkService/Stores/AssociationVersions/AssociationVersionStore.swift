import Foundation
import LinkKit
import Postgres

/// The SQL of `association_versions` (migrations/0018): a domain's served association files, numbered per domain.
/// Numbers are given under the domain's row lock (`lock`), so writers on any node never number twice.
/// `created_at` is the clock's time when the number was given (under the lock), so time order is number order.
enum AssociationVersionStore: ResourceStore {
    typealias Resource = AssociationVersion
    static let table = "association_versions"
    static let columns = """
        id, domain_id, n, aasa_etag, assetlinks_etag, audit_id, created_at, (extract(epoch FROM created_at) * 1000000)::int8
        """
    static let address = (key: "n", owner: "domain_id")

    /// The number and ETags of a domain's latest version.
    struct Latest: Sendable, Equatable {
        let number: Int
        let aasaETag: String
        let assetLinksETag: String
    }

    /// What a new version holds: the files as served and the domain's link space (its settings and rules are
    /// copied from their rows in the same statement).
    struct New {
        let domainID: UUID
        let aasa: [UInt8]
        let aasaETag: String
        let assetLinks: [UInt8]
        let assetLinksETag: String
        let linkSpace: JSONValue
    }

    /// Serialises the numbering of the domains `hostnames` for the rest of the transaction: their rows are locked
    /// `FOR KEY SHARE` first (what inserting a version referring to them takes anyway, taken before anything else,
    /// so a writer holding a domain `FOR UPDATE` is waited for before the numbering is held), then one
    /// transaction-level advisory lock per hostname, in hostname order (two writers locking several never wait for
    /// each other in a cycle). Row locks alone would not do: a rules change holds its domain and waits for the
    /// apps its rules refer to, which an app's change holds while it records the domains using the app.
    static func lock(hostnames: [String], on connection: Connection) throws {
        guard !hostnames.isEmpty else { return }
        let sorted = Array(Set(hostnames)).sorted()
        try connection.execute("SELECT 1 FROM domains WHERE hostname = ANY(\(sorted)::text[]) ORDER BY id FOR KEY SHARE")
        try connection.execute(
            """
            SELECT pg_advisory_xact_lock(\(lockClass)::int4, hashtext(host)) FROM unnest(\(sorted)::text[]) WITH ORDINALITY AS h(host, i) ORDER BY i
            """)
    }

    /// The first key of the advisory locks numbering versions (the second is the hostname's `hashtext`).
    static let lockClass: Int32 = 0x6C6B_6176 // "lkav"

    /// The latest version of each domain among `ids` (nil: every domain) that has one: one index probe a domain.
    static func latest(domains ids: [UUID]?, on connection: Connection) throws -> [UUID: Latest] {
        let rows = try connection.query(
            """
            SELECT d.id, v.n, v.aasa_etag, v.assetlinks_etag FROM domains d
            CROSS JOIN LATERAL (
                SELECT n, aasa_etag, assetlinks_etag FROM association_versions WHERE domain_id = d.id ORDER BY n DESC LIMIT 1
            ) v
            WHERE \(ids.map { $0.map(\.canonicalText) })::uuid[] IS NULL OR d.id = ANY(\(ids.map { $0.map(\.canonicalText) })::uuid[])
            """)
        var latest: [UUID: Latest] = [:]
        latest.reserveCapacity(rows.count)
        for row in rows {
            let (id, number, aasa, assetLinks) = try row.decode((UUID, Int, String, String).self)
            latest[id] = Latest(number: number, aasaETag: aasa, assetLinksETag: assetLinks)
        }
        return latest
    }

    /// Inserts `new` as version `number` of its domain, naming the transaction's last audit entry (none: nil), with
    /// the domain's settings and rules as they are now, then forgets the versions beyond the `keep` latest.
    static func insert(_ new: New, number: Int, keep: Int, on connection: Connection) throws {
        try connection.execute(
            """
            INSERT INTO association_versions (domain_id, n, aasa, aasa_etag, assetlinks, assetlinks_etag, audit_id, snapshot, created_at)
            SELECT d.id, \(number), \(new.aasa), \(new.aasaETag), \(new.assetLinks), \(new.assetLinksETag),
                   nullif(current_setting(\(AuditStore.auditIDSetting), true), '')::int8,
                   json_build_object(
                       'settings', d.settings,
                       'rules', (SELECT coalesce(json_agg(json_build_object('id', r.id, 'definition', r.definition, 'apps', r.app_ids)
                                                          ORDER BY r.position), '[]'::json)
                                 FROM rules r WHERE r.domain_id = d.id),
                       'links', \(JSONText(new.linkSpace.serialized))::json),
                   clock_timestamp()
            FROM domains d WHERE d.id = \(new.domainID)
            """)
        try connection.execute("DELETE FROM association_versions WHERE domain_id = \(new.domainID) AND n <= \(number - keep)")
    }

    /// One page of the versions of `domain`, oldest first.
    static func page(_ page: Page, domain: UUID, on connection: Connection) throws -> [AssociationVersion] {
        try self.page(page, where: "domain_id = $1", [domain], on: connection)
    }

    /// Version `number` of `domain` with its files and snapshot; nil when there is none (never, or forgotten).
    static func find(domain: UUID, number: Int, on connection: Connection) throws -> AssociationVersionFiles? {
        guard
            let row = try connection.query(
                """
                SELECT \(unescaped: columns), aasa, assetlinks, snapshot FROM association_versions WHERE domain_id = \(domain) AND n = \(number)
                """
            ).first
        else { return nil }
        let snapshot: JSONText = try row.decode(10)
        return AssociationVersionFiles(
            version: try AssociationVersion(row: row), aasa: try row.decode(8), assetLinks: try row.decode(9),
            snapshot: (try? JSONValue.parse(snapshot.json)) ?? .object([]))
    }
}
