import Foundation
import LinkKit
import Postgres

/// A row of a `/v1` resource as its store decodes it: shown as `json`, listed in creation order
/// (`sortMicros`, `id`: the keyset of `Page`).
protocol ResourceRow: Sendable {
    /// Decodes the columns its store selects (`ResourceStore.columns`), in order.
    init(row: Row) throws
    var id: UUID { get }
    var json: JSONValue { get }
    /// The creation time in microseconds since 1970 (`created_at`), the page's sort key.
    var sortMicros: Int64 { get }
}

/// A resource whose writes are versioned (its ETag, `If-Match`) and audited. Its address (the `Location` of a
/// create) is printed from its route, which only the endpoints declare (`EndpointGroup.location`).
protocol VersionedResource: ResourceRow {
    /// `audit_log.resource_type`.
    static var auditType: String { get }
    /// `audit_log.resource_id`: the resource's address within the workspace.
    var auditID: String { get }
    var version: Int { get }
}

/// The SQL of one resource's table (`<Resource>Store`): the store names its table and the columns its row type
/// decodes; the statements every table shares are built here, the ones only it needs are written in the store.
protocol ResourceStore {
    associatedtype Resource: ResourceRow
    static var table: String { get }
    /// What `Resource.init(row:)` decodes, in order.
    static var columns: String { get }
    /// How the API addresses a row: by `key` (its id, a hostname, a name) within its `owner` (the workspace or
    /// the app it belongs to), the columns `find` compares.
    static var address: (key: String, owner: String) { get }
}

extension ResourceStore {
    /// The row `key` of `owner`, nil when `owner` has none, locked until the transaction ends with `forUpdate`
    /// (`FOR UPDATE`; `FOR NO KEY UPDATE` with `keepingKey`: a change that leaves the row's key as it is, which rows
    /// referring to it may still be written beside).
    static func find(
        _ key: any PostgresEncodable, of owner: UUID, forUpdate: Bool = false, keepingKey: Bool = false,
        on connection: Connection
    ) throws -> Resource? {
        let lock = forUpdate ? (keepingKey ? "FOR NO KEY UPDATE" : "FOR UPDATE") : ""
        let row = try connection.query(
            """
            SELECT \(unescaped: columns) FROM \(unescaped: table)
            WHERE \(unescaped: address.key) = \(bind: key) AND \(unescaped: address.owner) = \(owner) \(unescaped: lock)
            """
        ).first
        return try row.map(Resource.init(row:))
    }

    /// One page of `owner`'s rows (`address.owner`) in `(created_at, id)` order: the rows after the cursor, plus one
    /// more when another page exists.
    static func page(_ page: Page, of owner: UUID, on connection: Connection) throws -> [Resource] {
        try self.page(page, where: "\(address.owner) = $1", [owner], on: connection)
    }

    /// One page in `(created_at, id)` order: the rows after the cursor that satisfy `condition`, plus one more when
    /// another page exists. `condition` uses `$1…$n` for `binds`; the keyset parameters follow them. Numbered by
    /// hand: the stores' conditions bind a varying number of values before the keyset's.
    static func page(
        _ page: Page, where condition: String, _ binds: [any PostgresEncodable], on connection: Connection
    ) throws -> [Resource] {
        let cursor = binds.count + 1
        let sql = """
            SELECT \(columns) FROM \(table)
            WHERE (\(condition))
              AND ($\(cursor)::int8 IS NULL OR (created_at, id) > (timestamptz 'epoch' + $\(cursor)::int8 * interval '1 microsecond', $\(cursor + 1)::uuid))
            ORDER BY created_at, id LIMIT $\(cursor + 2)
            """
        return try connection.query(Query(unsafeSQL: sql, binds: binds + [page.after?.micros, page.after?.id, page.limit + 1])).map(
            Resource.init(row:))
    }

    /// Inserts one row: `names` are the columns given, `binds` their values in order (numbered here: their count
    /// varies with the store).
    static func insert(_ names: String, _ binds: [any PostgresEncodable], on connection: Connection) throws -> Resource {
        let values = (1...binds.count).map { "$\($0)" }.joined(separator: ", ")
        let row = try connection.query(
            Query(
                unsafeSQL: """
                    INSERT INTO \(table) (\(names)) VALUES (\(values)) RETURNING \(columns)
                    """, binds: binds)
        ).first!
        return try Resource(row: row)
    }

    /// Updates the row `id` (`$1`) with `assignments` (`$2…` for `binds`; none: only the version) as a new version.
    /// Numbered by hand: each store's assignments bind their own values after the id.
    static func update(
        _ id: UUID, set assignments: String = "", _ binds: [any PostgresEncodable] = [], on connection: Connection
    ) throws -> Resource {
        let set = assignments.isEmpty ? "" : assignments + ", "
        let row = try connection.query(
            Query(
                unsafeSQL: """
                    UPDATE \(table) SET \(set)version = version + 1, updated_at = now() WHERE id = $1 RETURNING \(columns)
                    """, binds: [id] + binds)
        ).first!
        return try Resource(row: row)
    }

    static func delete(_ id: UUID, on connection: Connection) throws {
        try connection.execute("DELETE FROM \(unescaped: table) WHERE id = \(id)")
    }
}
