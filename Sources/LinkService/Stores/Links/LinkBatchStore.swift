import Foundation
import LinkKit
import Postgres

/// The SQL of bulk link creation (`POST /v1/links/bulk`, `POST /v1/links/import`): the links are copied with
/// `COPY` straight into `links`, which a batch whose slugs are all free (the usual one) costs no more than; when a
/// slug is taken the copy fails whole, is rolled back to its savepoint, and the batch goes the careful way: copied
/// into a temporary table of the transaction, then inserted from it in one statement that skips the slugs their
/// domains already have and answers the ids it inserted. Each link carries its id, so the caller learns exactly
/// which items were created.
enum LinkBatchStore {
    /// The temporary table's columns, in the order `rows(of:)` writes them.
    private static let columns = """
        id, domain_id, slug, app_id, destination, url, fallbacks, utm_source, utm_medium, utm_campaign, utm_term, utm_content,
        tags, preview, expires_at, max_clicks, name, data, skip_store, targets, variants
        """

    /// Creates the transaction's (empty) batch table, dropped at its end.
    static func prepare(on connection: Connection) throws {
        try connection.executeScript(
            """
            CREATE TEMPORARY TABLE link_batch (LIKE links INCLUDING DEFAULTS) ON COMMIT DROP;
            ALTER TABLE link_batch DROP COLUMN workspace_id, DROP COLUMN version, DROP COLUMN created_at, DROP COLUMN updated_at;
            """)
    }

    /// Inserts `links` into `workspace` (each with its own id, in order), but those whose domain already has the
    /// slug. Answers the ids inserted.
    static func insert(_ links: some Collection<Link>, workspace: UUID, on connection: Connection) throws -> Set<UUID> {
        guard !links.isEmpty else { return [] }
        if try copyStraight(links, workspace: workspace, on: connection) { return Set(links.lazy.map(\.id)) }
        _ = try connection.execute("TRUNCATE link_batch")
        _ = try connection.copyFrom("COPY link_batch (\(unescaped: columns)) FROM STDIN", rows: links.lazy.map(rows(of:)))
        let inserted = try connection.query(
            """
            INSERT INTO links (workspace_id, \(unescaped: columns))
            SELECT \(workspace), \(unescaped: columns) FROM link_batch
            ON CONFLICT (domain_id, slug) DO NOTHING
            RETURNING id
            """)
        var ids = Set<UUID>(minimumCapacity: inserted.count)
        for row in inserted { ids.insert(try row.decode(0, as: UUID.self)) }
        return ids
    }

    /// Copies `links` into `links`, all of them, or none when a slug is taken (the copy rolled back to its savepoint).
    private static func copyStraight(_ links: some Collection<Link>, workspace: UUID, on connection: Connection) throws -> Bool {
        try connection.executeScript("SAVEPOINT link_copy")
        let owner = workspace.canonicalText
        do {
            _ = try connection.copyFrom(
                "COPY links (workspace_id, \(unescaped: columns)) FROM STDIN",
                rows: links.lazy.map { [owner] + rows(of: $0) })
        } catch {
            guard error.sqlState == .uniqueViolation else { throw error }
            try connection.executeScript("ROLLBACK TO SAVEPOINT link_copy")
            return false
        }
        try connection.executeScript("RELEASE SAVEPOINT link_copy")
        return true
    }

    /// The transaction's time, which every link it inserts is created at: `(now(), microseconds since 1970)`.
    static func now(on connection: Connection) throws -> (date: Date, micros: Int64) {
        let row = try connection.query("SELECT now(), (extract(epoch FROM now()) * 1000000)::int8").first!
        return (try row.decode(0, as: Date.self), try row.decode(1, as: Int64.self))
    }

    /// One link's fields in the text form of `COPY`, in the order of `columns`.
    private static func rows(of link: Link) -> [String?] {
        [
            link.id.canonicalText, link.domainID.canonicalText, link.slug, link.appID?.canonicalText, link.destination?.serialized,
            link.webURL, link.fallbacks.serialized, link.campaign.source, link.campaign.medium, link.campaign.campaign,
            link.campaign.term, link.campaign.content, link.tags.postgresText, link.preview.serialized, link.expiresAt?.postgresText,
            link.maxClicks.map { String($0) }, link.name, link.data?.serialized, link.skipStore ? "t" : "f",
            link.targetsJSON?.serialized, link.variantsJSON?.serialized,
        ]
    }
}
