import Foundation
import Postgres

extension Page {
    /// One page of `table` in `(created_at, id)` order: the rows after the cursor that satisfy `condition`,
    /// plus one more when another page exists. `condition` uses `$1…$n` for `binds`; the keyset
    /// parameters follow them.
    func rows<T>(
        of table: String, columns: String, where condition: String, binds: [any PostgresEncodable],
        on connection: Connection, decode: (Row) throws -> T
    ) throws -> [T] {
        let cursor = binds.count + 1
        let sql = """
            SELECT \(columns) FROM \(table)
            WHERE (\(condition))
              AND ($\(cursor)::int8 IS NULL OR (created_at, id) > (timestamptz 'epoch' + $\(cursor)::int8 * interval '1 microsecond', $\(cursor + 1)::uuid))
            ORDER BY created_at, id LIMIT $\(cursor + 2)
            """
        return try connection.query(Query(unsafeSQL: sql, binds: binds + [after?.micros, after?.id, limit + 1])).map(decode)
    }
}
