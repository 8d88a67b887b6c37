import EmbeddedPostgres
import Foundation
import Observability
import LinkService
import Postgres

/// The database a command talks to: `DATABASE_URL` when set, else the embedded cluster, started on
/// demand under the data directory and stopped by `close()`.
final class DatabaseBootstrap {
    /// The database the embedded cluster holds linkd's tables in.
    static let embeddedDatabaseName = "linkd"

    let parameters: ConnectionParameters
    private let cluster: EmbeddedCluster?
    /// Stop an embedded server that was already running when we started (the server itself does, so a
    /// crashed predecessor's PostgreSQL does not outlive it; one-off commands leave a running server alone).
    private let stopsAdoptedServer: Bool
    /// The server's claim on the data directory (`DataDirectoryLock`), held until this bootstrap goes.
    private let lock: DataDirectoryLock?

    /// Connects to `DATABASE_URL`, or starts (initialising on first use) the embedded cluster.
    /// The server (`stopsAdoptedServer`) first locks the data directory, so that it never adopts, and then
    /// stops, a cluster another server runs.
    /// - Throws: `PostgresError` for a bad URL, `DataDirectoryLock.InUse` when another server has the data
    ///   directory, `EmbeddedPostgresError` (with what to install) when the server binaries are missing or the
    ///   cluster cannot start.
    init(configuration: Configuration, logger: Logger, stopsAdoptedServer: Bool = false) throws {
        self.stopsAdoptedServer = stopsAdoptedServer
        if let url = configuration.databaseURL {
            parameters = try ConnectionParameters(url)
            cluster = nil
            lock = nil
            return
        }
        lock = stopsAdoptedServer ? try DataDirectoryLock(configuration.dataDirectory) : nil
        let cluster = EmbeddedCluster(dataDirectory: configuration.dataDirectory, logger: logger.with(label: "linkd.embedded-postgres"))
        try cluster.start()
        do {
            let server = try ConnectionParameters(cluster.connectionString)
            try Self.ensureDatabase(Self.embeddedDatabaseName, on: server)
            parameters = server.setting("dbname", to: Self.embeddedDatabaseName)
        } catch {
            if stopsAdoptedServer || !cluster.adoptedRunningServer { cluster.stop() }
            throw error
        }
        self.cluster = cluster
        logger.info(
            "embedded PostgreSQL running",
            metadata: [
                "db.data_dir": configuration.dataDirectory.path, "db.cluster_dir": cluster.clusterDirectory.path,
            ])
    }

    /// Stops the embedded cluster, if this bootstrap started it (or adopted it, for the server). Idempotent.
    func close() {
        guard let cluster, stopsAdoptedServer || !cluster.adoptedRunningServer else { return }
        cluster.stop()
    }

    private static func ensureDatabase(_ name: String, on server: ConnectionParameters) throws {
        let connection = try Connection(server)
        let exists = try connection.query("SELECT 1 FROM pg_database WHERE datname = \(name)")
        if exists.count == 0 {
            // CREATE DATABASE takes an identifier, not a parameter; `name` is our constant.
            try connection.executeScript("CREATE DATABASE \(name)")
        }
    }
}

extension DatabaseBootstrap {
    /// For one-off commands: opens the database, lends a one-connection pool and the migrator, then closes
    /// everything (leaving a server that another process runs alone).
    static func withDatabase<T>(_ configuration: Configuration, _ body: (ConnectionPool, Migrator) throws -> T) throws -> T {
        let logger = configuration.makeLogger()
        let database = try DatabaseBootstrap(configuration: configuration, logger: logger)
        defer { database.close() }
        let pool = ConnectionPool(parameters: database.parameters, maxConnections: 1, logger: logger)
        defer { pool.shutdown() }
        let migrator = Migrator(migrations: try configuration.migrations(), logger: logger)
        return try body(pool, migrator)
    }

    /// `withDatabase` with the migrations applied first: what a command that reads or writes rows runs in.
    static func withMigratedDatabase<T>(_ configuration: Configuration, _ body: (ConnectionPool) throws -> T) throws -> T {
        try withDatabase(configuration) { pool, migrator in
            try migrator.migrate(using: pool)
            return try body(pool)
        }
    }
}
