import EmbeddedPostgres
import Foundation
import LinkService
import Observability
import Postgres

/// Where the benchmark's databases live: `DATABASE_URL` when set, else a private durable cluster (fsync on,
/// like a real deployment) in a temporary directory, removed at the end.
final class BenchDatabase {
    let admin: ConnectionParameters
    private let cluster: EmbeddedCluster?
    private let directory: URL?

    init(logger: Logger, durable: Bool) throws {
        if let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty {
            admin = try ConnectionParameters(url)
            cluster = nil
            directory = nil
        } else {
            let directory = URL(fileURLWithPath: "/tmp/linkd-hits-bench-\(getpid())")
            let cluster = EmbeddedCluster(dataDirectory: directory, logger: logger, durable: durable)
            try cluster.start()
            admin = try ConnectionParameters(cluster.connectionString)
            self.cluster = cluster
            self.directory = directory
        }
    }

    /// A fresh, migrated database.
    func create(_ name: String, migrations: URL) throws -> ConnectionParameters {
        let connection = try Connection(admin)
        try connection.executeScript("DROP DATABASE IF EXISTS \(Query.quoteIdentifier(name)) WITH (FORCE)")
        try connection.executeScript("CREATE DATABASE \(Query.quoteIdentifier(name))")
        let parameters = admin.setting("dbname", to: name)
        let pool = ConnectionPool(parameters: parameters, maxConnections: 1, logger: Logger(label: "bench", level: .error))
        defer { pool.shutdown() }
        try Migrator(migrations: Migration.load(from: migrations), logger: Logger(label: "bench", level: .error)).migrate(using: pool)
        return parameters
    }

    /// The database `name` as a previous run left it (`--reuse`), migrated to this build's schema: measuring a
    /// build against data generated once, and timing its migrations on that data.
    func existing(_ name: String, migrations: URL) throws -> ConnectionParameters {
        let parameters = admin.setting("dbname", to: name)
        let pool = ConnectionPool(parameters: parameters, maxConnections: 1, logger: Logger(label: "bench", level: .error))
        defer { pool.shutdown() }
        let started = Date()
        try Migrator(migrations: Migration.load(from: migrations), logger: Logger(label: "bench", level: .error)).migrate(using: pool)
        say(String(format: "  %@ reused, migrated in %.1f s", name, Date().timeIntervalSince(started)))
        return parameters
    }

    func close() {
        cluster?.stop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }
}

/// One line on standard output, unbuffered (progress shows as it happens, also when redirected).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
