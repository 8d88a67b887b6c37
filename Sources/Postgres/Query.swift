import Foundation

/// A SQL statement and its parameters, built by string interpolation:
/// `"SELECT * FROM links WHERE host = \(host)"` becomes `SELECT * FROM links WHERE host = $1` with
/// `host` bound as `$1`. Interpolated values are always parameters, never SQL text, unless spliced as
/// `\(unescaped: text)`: trusted SQL (a table's name, a column list, a keyword) that the code itself wrote.
public struct Query: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The SQL with `$n` placeholders.
    public private(set) var sql: String
    /// The parameters, `$1` first.
    public private(set) var binds: [any PostgresEncodable]

    /// A query written by hand: DDL, identifiers, or explicit `$n` placeholders matching `binds`.
    /// The name says it: `unsafeSQL` must never contain text from a request.
    public init(unsafeSQL: String, binds: [any PostgresEncodable] = []) {
        self.sql = unsafeSQL
        self.binds = binds
    }

    public init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(unsafeSQL: stringInterpolation.sql, binds: stringInterpolation.binds)
    }

    /// Collects literal SQL and turns each interpolated value into the next `$n`.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var sql: String
        var binds: [any PostgresEncodable] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql = ""
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
            binds.reserveCapacity(interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) { sql += literal }

        /// Binds `value` as the next parameter.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        /// Binds an optional: nil is SQL NULL.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        /// Binds a value whose type is known only at run time (an `any PostgresEncodable`) as the next parameter.
        public mutating func appendInterpolation(bind value: any PostgresEncodable) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        /// Splices `sql` as it is, binding nothing: trusted SQL text the code wrote (a table's name, a column
        /// list, a keyword), never text from a request. As postgres-nio's `\(unescaped:)`.
        public mutating func appendInterpolation(unescaped sql: String) {
            self.sql += sql
        }

        /// Inserts `identifier` double-quoted (`"my table"`, embedded `"` doubled): for names, not values.
        public mutating func appendInterpolation(identifier: String) {
            sql += Query.quoteIdentifier(identifier)
        }
    }

    /// `"name"`, with embedded double quotes doubled: PostgreSQL's quoted-identifier syntax.
    public static func quoteIdentifier(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The SQL with placeholders; parameters are not shown.
    public var description: String { sql }
}
