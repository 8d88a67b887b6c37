import Foundation
import Postgres
import Synchronization

/// A fresh database on the test server, named `linkd_test_<pid>_<n>`, for one suite or test.
///
/// ```swift
/// @Test func savesLinks() throws {
///     try withTestDatabase { parameters in
///         let pool = ConnectionPool(parameters: parameters, logger: Logger(label: "test", sink: .discard))
///         defer { pool.shutdown() }
///         ...
///     }
/// }
/// ```
/// `withTestDatabase` drops the database afterwards even when `body` throws. A suite that wants one
/// database for all its tests keeps a `TestDatabase` and calls `drop()` in `deinit`.
/// To start from a prepared (e.g. migrated) database, create it once and pass its name as `template`.
public final class TestDatabase: Sendable {
    private static let counter = Atomic<Int>(0)

    /// The database name.
    public let name: String
    /// Parameters pointing at this database.
    public let parameters: ConnectionParameters
    private let dropped = Atomic<Bool>(false)

    private init(name: String, parameters: ConnectionParameters) {
        self.name = name
        self.parameters = parameters
    }

    /// Creates a database with a fresh name, optionally as a copy of `template`.
    /// - Parameters:
    ///   - template: a database to copy (it must have no open connections while this runs).
    ///   - name: a fixed name instead of a generated one (e.g. for the template itself).
    /// - Throws: `TestClusterError` when the server cannot be started, `PostgresError` from `CREATE DATABASE`.
    public static func create(template: String? = nil, name: String? = nil) throws -> TestDatabase {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let name = name ?? "linkd_test_\(getpid())_\(number)"
        try createDatabase(name, template: template)
        return TestDatabase(name: name, parameters: try TestCluster.adminParameters().setting("dbname", to: name))
    }

    /// `CREATE DATABASE name [TEMPLATE template]` on the test server.
    public static func createDatabase(_ name: String, template: String? = nil) throws {
        var sql = "CREATE DATABASE " + Query.quoteIdentifier(name)
        if let template { sql += " TEMPLATE " + Query.quoteIdentifier(template) }
        try TestCluster.withAdminConnection { try $0.executeScript(sql) }
    }

    /// `DROP DATABASE IF EXISTS name WITH (FORCE)`: closes leftover connections first.
    public static func dropDatabase(_ name: String) throws {
        try TestCluster.withAdminConnection {
            try $0.executeScript("DROP DATABASE IF EXISTS \(Query.quoteIdentifier(name)) WITH (FORCE)")
        }
    }

    /// Drops the database (idempotent).
    public func drop() throws {
        guard !dropped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try Self.dropDatabase(name)
    }

    deinit {
        try? drop()
    }
}

/// Runs `body` with parameters for a fresh database, dropped afterwards (also when `body` throws).
/// - Parameter template: a database to copy, e.g. a migrated template.
public func withTestDatabase<T>(template: String? = nil, _ body: (ConnectionParameters) throws -> T) throws -> T {
    let database = try TestDatabase.create(template: template)
    defer { try? database.drop() }
    return try body(database.parameters)
}

/// The `async` form of `withTestDatabase`.
public func withTestDatabase<T>(template: String? = nil, _ body: (ConnectionParameters) async throws -> T) async throws -> T {
    let database = try TestDatabase.create(template: template)
    defer { try? database.drop() }
    return try await body(database.parameters)
}
