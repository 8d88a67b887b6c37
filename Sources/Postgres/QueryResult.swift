import CLibPQ
import Foundation

/// The rows a statement returned, copied out of the `PGresult`.
///
/// Values are copied eagerly and the `PGresult` is cleared before `query` returns: results here are
/// small (a page of rows), every caller decodes all of them anyway, and owning plain Swift values makes
/// `QueryResult` and `Row` checked-`Sendable` with no C lifetime to get wrong.
public final class QueryResult: Sendable, RandomAccessCollection {
    /// Column names, in order.
    public let columnNames: [String]
    /// Column types, in order.
    public let columnTypes: [PostgresType]
    /// Rows affected by INSERT/UPDATE/DELETE/COPY (`PQcmdTuples`), or 0.
    public let rowsAffected: Int
    let rowCount: Int
    let values: [String?] // row-major, rowCount * columnNames.count

    /// Copies everything out of `result`; the caller still clears it.
    init(copying result: OpaquePointer) {
        let rows = Int(PQntuples(result))
        let columns = Int(PQnfields(result))
        var names: [String] = []
        var types: [PostgresType] = []
        for column in 0..<columns {
            names.append(String(cString: PQfname(result, Int32(column))))
            types.append(PostgresType(rawValue: PQftype(result, Int32(column))))
        }
        var values: [String?] = []
        values.reserveCapacity(rows * columns)
        for row in 0..<rows {
            for column in 0..<columns {
                // libpq: "PQgetvalue [...] An empty string is returned if the field value is null.
                // See PQgetisnull to distinguish null values from empty-string values."
                if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                    values.append(nil)
                } else {
                    let length = Int(PQgetlength(result, Int32(row), Int32(column)))
                    let start = UnsafeRawPointer(PQgetvalue(result, Int32(row), Int32(column))!)
                    values.append(String(decoding: UnsafeRawBufferPointer(start: start, count: length), as: UTF8.self))
                }
            }
        }
        self.columnNames = names
        self.columnTypes = types
        self.rowCount = rows
        self.values = values
        // libpq: "PQcmdTuples [...] returns the number of rows affected by the SQL command [...] a string
        // containing the number [...] If the command was anything else, it returns an empty string."
        self.rowsAffected = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// A result with no rows, for commands that return none.
    init(rowsAffected: Int) {
        columnNames = []
        columnTypes = []
        rowCount = 0
        values = []
        self.rowsAffected = rowsAffected
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rowCount }
    public subscript(position: Int) -> Row { Row(result: self, index: position) }

    func columnIndex(_ name: String) -> Int? { columnNames.firstIndex(of: name) }
}

/// One row of a `QueryResult`, decoded by column index or name.
public struct Row: Sendable {
    let result: QueryResult
    let index: Int

    /// The number of columns.
    public var columnCount: Int { result.columnNames.count }

    /// Decodes column `column` (0-based) as `T`.
    /// - Throws: `.decodingFailed` if the index is out of range, the type does not fit, or NULL meets a non-optional.
    public func decode<T: PostgresDecodable>(_ column: Int, as type: T.Type = T.self) throws(PostgresError) -> T {
        let columns = result.columnNames.count
        guard column >= 0, column < columns else {
            throw PostgresError(.decodingFailed, serverMessage: "column index \(column) out of range (\(columns) columns)")
        }
        let columnType = result.columnTypes[column]
        guard let text = result.values[index * columns + column] else { return try T.postgresNull(type: columnType) }
        return try T(postgresText: text, type: columnType)
    }

    /// Decodes the first column named `column` as `T`.
    /// - Throws: `.decodingFailed` if there is no such column, the type does not fit, or NULL meets a non-optional.
    public func decode<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws(PostgresError) -> T {
        guard let position = result.columnIndex(column) else {
            throw PostgresError(.decodingFailed, serverMessage: "no column named \(column)")
        }
        return try decode(position, as: T.self)
    }

    /// Decodes the leading columns as a tuple: `let (id, host) = try row.decode((UUID, String).self)`.
    /// - Throws: `.decodingFailed` as for single columns.
    public func decode<each T: PostgresDecodable>(_ types: (repeat each T).Type) throws(PostgresError) -> (repeat each T) {
        var column = 0
        func next<U: PostgresDecodable>(_: U.Type) throws(PostgresError) -> U {
            defer { column += 1 }
            return try decode(column, as: U.self)
        }
        return (repeat try next((each T).self))
    }

    /// The raw text of a column, nil for NULL.
    public subscript(column: Int) -> String? {
        result.values[index * result.columnNames.count + column]
    }
}
