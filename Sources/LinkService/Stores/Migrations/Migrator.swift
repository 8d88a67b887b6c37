import Observability
import Postgres

/// Applies `migrations/` in order, each in its own transaction, recorded with its checksum in
/// `schema_migrations`, under a PostgreSQL advisory lock so that nodes starting at once take turns.
/// Its SQL (the lock, `schema_migrations`, the migrations' scripts) is the migrator's own mechanism, so it stays here.
public struct Migrator: Sendable {
    /// Whether the database schema matches the migrations this build knows.
    public enum Status: Sendable, Equatable {
        case current
        case pending([Int])
        case invalid(MigrationError)
    }

    /// The advisory lock key (an arbitrary constant: "linkd" in ASCII).
    static let lockKey: Int64 = 0x6C_69_6E_6B_64

    public let migrations: [Migration]
    private let logger: Logger

    public init(migrations: [Migration], logger: Logger) {
        self.migrations = migrations
        self.logger = logger
    }

    /// Applies every pending migration and returns the versions applied.
    ///
    /// Holds the advisory lock on one connection for the whole run; a second runner blocks on it and then
    /// finds nothing to do.
    /// - Throws: `MigrationError` for a changed or unknown applied migration; `PostgresError` when SQL fails
    ///   (that migration's transaction is rolled back; earlier ones stay applied).
    @discardableResult
    public func migrate(using pool: ConnectionPool) throws -> [Int] {
        try pool.withConnection { connection in
            try connection.execute("SELECT pg_advisory_lock(\(Self.lockKey))")
            defer { _ = try? connection.execute("SELECT pg_advisory_unlock(\(Self.lockKey))") }
            try connection.executeScript(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    checksum text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
            let applied = try appliedMigrations(on: connection)
            try verify(applied)
            var newlyApplied: [Int] = []
            for migration in migrations where applied[migration.version] == nil {
                try apply(migration, on: connection)
                newlyApplied.append(migration.version)
            }
            return newlyApplied
        }
    }

    /// Compares the database with the known migrations without changing anything.
    public func status(using pool: ConnectionPool) throws -> Status {
        try pool.withConnection { connection in
            let exists = try connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL")
            guard try exists.first?.decode(0, as: Bool.self) == true else {
                return .pending(migrations.map(\.version))
            }
            let applied = try appliedMigrations(on: connection)
            do {
                try verify(applied)
            } catch let error as MigrationError {
                return .invalid(error)
            }
            let pending = migrations.map(\.version).filter { applied[$0] == nil }
            return pending.isEmpty ? .current : .pending(pending)
        }
    }

    private func appliedMigrations(on connection: Connection) throws -> [Int: String] {
        var applied: [Int: String] = [:]
        for row in try connection.query("SELECT version, checksum FROM schema_migrations") {
            let (version, checksum) = try row.decode((Int, String).self)
            applied[version] = checksum
        }
        return applied
    }

    private func verify(_ applied: [Int: String]) throws(MigrationError) {
        for (version, checksum) in applied.sorted(by: { $0.key < $1.key }) {
            guard let known = migrations.first(where: { $0.version == version }) else {
                throw .unknownAppliedVersion(version)
            }
            guard known.checksum == checksum else {
                throw .checksumMismatch(version: version, name: known.name)
            }
        }
    }

    private func apply(_ migration: Migration, on connection: Connection) throws {
        logger.info("applying migration", metadata: ["migration.version": "\(migration.version)", "migration.name": migration.name])
        try connection.executeScript("BEGIN")
        do {
            try connection.executeScript(migration.sql)
            try connection.execute(
                """
                INSERT INTO schema_migrations (version, name, checksum)
                VALUES (\(migration.version), \(migration.name), \(migration.checksum))
                """)
            try connection.executeScript("COMMIT")
        } catch {
            _ = try? connection.executeScript("ROLLBACK")
            throw error
        }
    }
}
