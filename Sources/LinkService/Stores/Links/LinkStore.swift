import Foundation
import LinkKit
import Postgres

/// The SQL of `links` and the decoding of its rows.
enum LinkStore: ResourceStore {
    typealias Resource = Link
    static let table = "links"
    static let columns = """
        id, domain_id, (SELECT hostname FROM domains WHERE domains.id = links.domain_id), slug, app_id, destination, url, fallbacks,
        utm_source, utm_medium, utm_campaign, utm_term, utm_content, tags, preview, expires_at, max_clicks, name, data,
        version, created_at, updated_at, (extract(epoch FROM created_at) * 1000000)::int8, clicks, skip_store,
        targets, variants
        """
    static let address = (key: "id", owner: "workspace_id")

    /// What a list is narrowed to (`GET /v1/links`); nil members do not narrow it.
    struct Filter {
        var hostname: String?
        var tag: String?
        /// Found in `campaign.campaign` (utm_campaign), as a substring, case-insensitively.
        var campaign: String?
        var destinationType: String?
        /// Found in the slug or the name, as a substring, case-insensitively.
        var search: String?
    }

    /// Inserts `link` (its id, version and timestamps are the database's); nil when its domain already has the slug.
    static func insert(_ link: Link, workspace: UUID, on connection: Connection) throws -> Link? {
        // Numbered: `values(of:)` gives the 21 values in the order `update` binds them too.
        let row = try connection.query(
            Query(
                unsafeSQL: """
                    INSERT INTO links (workspace_id, domain_id, slug, app_id, destination, url, fallbacks, utm_source, utm_medium, utm_campaign,
                                       utm_term, utm_content, tags, preview, expires_at, max_clicks, name, data, skip_store, targets, variants)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
                    ON CONFLICT (domain_id, slug) DO NOTHING
                    RETURNING \(columns)
                    """, binds: [workspace] + values(of: link))
        ).first
        return try row.map(Link.init(row:))
    }

    /// Saves every writable field of `link` as its next version.
    static func save(_ link: Link, on connection: Connection) throws -> Link {
        try update(
            link.id,
            set: """
                domain_id = $2, slug = $3, app_id = $4, destination = $5, url = $6, fallbacks = $7, utm_source = $8, utm_medium = $9,
                utm_campaign = $10, utm_term = $11, utm_content = $12, tags = $13, preview = $14, expires_at = $15, max_clicks = $16,
                name = $17, data = $18, skip_store = $19, targets = $20, variants = $21
                """, values(of: link), on: connection)
    }

    /// Whether another link (not `excluding`) of the domain has the slug.
    static func slugTaken(_ slug: String, domain: UUID, excluding id: UUID?, on connection: Connection) throws -> Bool {
        try connection.query("SELECT 1 FROM links WHERE domain_id = \(domain) AND slug = \(slug) AND id IS DISTINCT FROM \(id)").count > 0
    }

    /// The link `slug` of the domain `domain`, its taps counted so far (`clicks`) included, as a click or resolve of
    /// it asks (one lookup by the unique index).
    static func served(slug: String, domain: UUID, on connection: Connection) throws -> Link? {
        try connection.query("SELECT \(unescaped: columns) FROM links WHERE domain_id = \(domain) AND slug = \(slug)")
            .first.map(Link.init(row:))
    }

    /// Streams the served fields of every link (`domains` nil) or of the domains named, in one binary `COPY`, in no
    /// order, a row each (`LinkSegment.Builder` reads them): `domain_id, slug, id, app_id`, the destination's type and
    /// params, `url`, the four fallbacks, the five `utm_*`, the preview's title, description and image, `name`,
    /// `data`, `expires_at` as text, `skip_store`, and whether the link must be read here at each click (a click
    /// limit, targets or variants).
    static func copyServed(domains: [UUID]?, on connection: Connection, _ body: (CopyRow) -> Void) throws {
        // Domain ids are UUIDs we format, so the filter can be written into the COPY (which takes no parameters).
        let filter = domains.map { "WHERE domain_id IN (\($0.map { "'\($0.canonicalText)'" }.joined(separator: ",")))" } ?? ""
        _ = try connection.copyOut(
            """
            COPY (SELECT domain_id, slug, id, app_id, destination ->> 'type', destination -> 'params', url,
                         fallbacks ->> 'ios', fallbacks ->> 'ipad', fallbacks ->> 'android', fallbacks ->> 'desktop',
                         utm_source, utm_medium, utm_campaign, utm_term, utm_content,
                         preview ->> 'title', preview ->> 'description', preview ->> 'imageUrl', name, data, expires_at::text,
                         skip_store, max_clicks IS NOT NULL OR targets IS NOT NULL OR variants IS NOT NULL
                  FROM links \(unescaped: filter)) TO STDOUT (FORMAT binary)
            """, body)
    }

    /// The slug, app and destination type of the first `limit` links of the domain (oldest first), what a rule change
    /// is checked against (`LinkPlacement`).
    static func placements(domain: UUID, limit: Int, on connection: Connection) throws -> [(slug: String, app: UUID?, type: String?)] {
        try connection.query(
            """
            SELECT slug, app_id, destination ->> 'type' FROM links WHERE domain_id = \(domain) ORDER BY created_at, id LIMIT \(limit)
            """
        ).map { try $0.decode((String, UUID?, String?).self) }
    }

    /// The slugs of the targeted links (with targets or variants) of each domain named, by hostname, in slug order:
    /// what a generated router hands to resolve (docs/CODEGEN.md, "Targeted links"). A domain without any is left out.
    static func targetedSlugs(hostnames: [String], on connection: Connection) throws -> [String: [String]] {
        let rows = try connection.query(
            """
            SELECT d.hostname, l.slug FROM links l JOIN domains d ON d.id = l.domain_id
            WHERE d.hostname = ANY(\(hostnames)::text[]) AND (l.targets IS NOT NULL OR l.variants IS NOT NULL)
            ORDER BY d.hostname, l.slug COLLATE "C"
            """)
        var slugs: [String: [String]] = [:]
        for row in rows {
            let (hostname, slug) = try row.decode((String, String).self)
            slugs[hostname, default: []].append(slug)
        }
        return slugs
    }

    /// Links that lead somewhere, as a refusal to delete it names them: "2 links (go.example.com/a, go.example.com/b)".
    struct Uses: CustomStringConvertible {
        var count: Int
        /// The oldest three, `host/slug`.
        var examples: [String]

        var description: String {
            "\(count) link\(count == 1 ? "" : "s") (\(examples.joined(separator: ", "))\(count > examples.count ? ", …" : ""))"
        }
    }

    /// The links that open `app` (with a destination of type `type`, when given).
    static func leading(to app: UUID, type: String?, on connection: Connection) throws -> Uses {
        // Numbered: one filter, bound alike, for the count and the examples.
        let filter = "l.app_id = $1 AND ($2::text IS NULL OR l.destination ->> 'type' = $2)"
        let count = try connection.query(Query(unsafeSQL: "SELECT count(*)::int8 FROM links l WHERE \(filter)", binds: [app, type]))
            .first!.decode(0, as: Int.self)
        guard count > 0 else { return Uses(count: 0, examples: []) }
        let examples = try connection.query(
            Query(
                unsafeSQL: """
                    SELECT d.hostname || '/' || l.slug FROM links l JOIN domains d ON d.id = l.domain_id
                    WHERE \(filter) ORDER BY l.created_at, l.id LIMIT 3
                    """, binds: [app, type])
        ).map { try $0.decode(0, as: String.self) }
        return Uses(count: count, examples: examples)
    }

    /// Adds taps to links' counts (`LinkClickCounter`).
    static func addClicks(_ taps: [UUID: Int64], on connection: Connection) throws {
        guard !taps.isEmpty else { return }
        try connection.execute(
            """
            UPDATE links SET clicks = links.clicks + t.n
            FROM unnest(\(taps.keys.map(\.canonicalText))::uuid[], \(Array(taps.values))::int8[]) AS t (id, n) WHERE links.id = t.id
            """)
    }

    /// The link space of each domain that has links (`link_apps`), of every domain (`domains` nil) or of those named.
    static func spaces(domains: [UUID]?, on connection: Connection) throws -> [UUID: LinkSpace] {
        let ids = domains.map { $0.map(\.canonicalText) }
        let rows = try connection.query(
            """
            SELECT domain_id, coalesce(array_agg(app_id::text) FILTER (WHERE app_id IS NOT NULL), '{}') FROM link_apps
            WHERE links > 0 AND (\(ids)::uuid[] IS NULL OR domain_id = ANY(\(ids)::uuid[])) GROUP BY domain_id
            """)
        var spaces: [UUID: LinkSpace] = [:]
        for row in rows {
            let (domain, apps) = try row.decode((UUID, [String]).self)
            spaces[domain] = LinkSpace(apps: apps.compactMap(UUID.init(uuidString:)), hasLinks: true)
        }
        return spaces
    }

    /// How many links to web pages (no app) each of `domains` holds (`link_apps`); a domain without any is left out.
    static func webLinkCounts(domains: [UUID], on connection: Connection) throws -> [UUID: Int] {
        let rows = try connection.query(
            """
            SELECT domain_id, links FROM link_apps WHERE app_id IS NULL AND links > 0
              AND domain_id = ANY(\(domains.map(\.canonicalText))::uuid[])
            """)
        return Dictionary(try rows.map { try $0.decode((UUID, Int).self) }, uniquingKeysWith: { first, _ in first })
    }

    /// The oldest `limit` slugs of links to web pages on `domain`, but `excluding`'s.
    static func webLinkSlugs(domain: UUID, excluding: UUID?, limit: Int, on connection: Connection) throws -> [String] {
        try connection.query(
            """
            SELECT slug FROM links WHERE domain_id = \(domain) AND app_id IS NULL AND (\(excluding)::uuid IS NULL OR id <> \(excluding))
            ORDER BY created_at, id LIMIT \(limit)
            """
        ).map { try $0.decode(0, as: String.self) }
    }

    /// Whether a link on `domain` other than `excluding` opens `app`.
    static func opens(app: UUID, domain: UUID, excluding: UUID, on connection: Connection) throws -> Bool {
        try connection.query(
            """
            SELECT EXISTS (SELECT 1 FROM links WHERE domain_id = \(domain) AND app_id = \(app) AND id <> \(excluding))
            """
        ).first!.decode(0, as: Bool.self)
    }

    /// One page of the links of `workspace` that `filter` keeps, in `order` (`page.position`, the previous page's
    /// last row, is read as `order` wrote it).
    /// - Throws: `ServiceError.badRequest` for a cursor of another order.
    static func page(_ page: Page, workspace: UUID, filter: Filter, order: LinkOrder = .default, on connection: Connection) throws -> [Link]
    {
        var binds = binds(workspace, filter)
        var key: (any PostgresEncodable)?
        if let position = page.position {
            guard let bind = order.bind(position.key) else {
                throw ServiceError.badRequest("The cursor is not one this API issued for sort=\(order.rawValue).")
            }
            key = bind
        }
        let sql = order.sql(key: binds.count + 1, id: binds.count + 2)
        binds += [key.flatMap(\.postgresText), page.position?.id, page.limit + 1]
        // Numbered: `condition` (`$1…$6`) is shared with `count`; the order's keyset binds follow it.
        return try connection.query(
            Query(
                unsafeSQL: """
                    SELECT \(columns) FROM links WHERE (\(condition)) AND \(sql.after)
                    ORDER BY \(sql.orderBy) LIMIT $\(binds.count)
                    """, binds: binds)
        ).map(Link.init(row:))
    }

    /// How many links of `workspace` `filter` keeps.
    static func count(workspace: UUID, filter: Filter, on connection: Connection) throws -> Int {
        // Numbered: `condition` (`$1…$6`) is shared with `page`.
        try connection.query(Query(unsafeSQL: "SELECT count(*)::int8 FROM links WHERE \(condition)", binds: binds(workspace, filter)))
            .first!.decode(0, as: Int.self)
    }

    /// What `Filter` keeps, over `$1…$6` (`binds`).
    private static let condition = """
        workspace_id = $1
        AND ($2::text IS NULL OR domain_id = (SELECT id FROM domains WHERE hostname = $2))
        AND ($3::text IS NULL OR tags @> ARRAY[$3::text])
        AND ($4::text IS NULL OR utm_campaign ILIKE $4)
        AND ($5::text IS NULL OR destination ->> 'type' = $5)
        AND ($6::text IS NULL OR slug ILIKE $6 OR name ILIKE $6)
        """

    private static func binds(_ workspace: UUID, _ filter: Filter) -> [any PostgresEncodable] {
        [workspace, filter.hostname, filter.tag, filter.campaign.map(containing), filter.destinationType, filter.search.map(containing)]
    }

    /// An `ILIKE` pattern matching `text` anywhere, its own `%`, `_` and `\` taken literally.
    static func containing(_ text: String) -> String {
        var pattern = "%"
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// The binds `$2…$21` of `insert` and `save`.
    private static func values(of link: Link) -> [any PostgresEncodable] {
        [
            link.domainID, link.slug, link.appID, link.destination.map { JSONText($0.serialized) }, link.webURL,
            JSONText(link.fallbacks.serialized), link.campaign.source, link.campaign.medium, link.campaign.campaign, link.campaign.term,
            link.campaign.content, link.tags, JSONText(link.preview.serialized), link.expiresAt, link.maxClicks, link.name,
            link.data.map { JSONText($0.serialized) }, link.skipStore, link.targetsJSON.map { JSONText($0.serialized) },
            link.variantsJSON.map { JSONText($0.serialized) },
        ]
    }
}

extension Link {
    init(row: Row) throws {
        let destination: JSONText?, fallbacks: JSONText, preview: JSONText, data: JSONText?
        var campaign = Campaign()
        (
            id, domainID, hostname, slug, appID, destination, webURL, fallbacks, campaign.source, campaign.medium, campaign.campaign,
            campaign.term, campaign.content, tags, preview, expiresAt, maxClicks, name, data, version, createdAt, updatedAt, sortMicros,
            clicks, skipStore
        ) =
            try row.decode(
                (
                    UUID, UUID, String, String, UUID?, JSONText?, String?, JSONText, String?, String?, String?, String?, String?,
                    [String], JSONText, Date?, Int64?, String?, JSONText?, Int, Date, Date, Int64, Int64, Bool
                ).self)
        self.campaign = campaign
        self.destination = try destination.map { try JSONValue.parse($0.json) }
        self.fallbacks = try JSONValue.parse(fallbacks.json)
        self.preview = try JSONValue.parse(preview.json)
        self.data = try data.map { try JSONValue.parse($0.json) }
        // The stored targets were validated when written: read with the API's reader, what it refuses now is left out.
        if let text = try row.decode(25, as: JSONText?.self), case .array(let items) = try JSONValue.parse(text.json) {
            targets = LinkTargeting.targets(items.enumerated().map { ($0.element, "/targets/\($0.offset)") }, errors: FieldErrors())
        }
        if let text = try row.decode(26, as: JSONText?.self), case .array(let items) = try JSONValue.parse(text.json) {
            variants = LinkTargeting.variants(
                items.enumerated().map { ($0.element, "/variants/\($0.offset)") }, at: "/variants", errors: FieldErrors())
        }
    }
}
