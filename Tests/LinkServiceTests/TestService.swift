import Foundation
import HTTPServer
import LinkKit
@testable import LinkService
import Observability
import Postgres
import Synchronization
import TestSupport

/// The repository's `migrations/` folder.
let migrationsDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("migrations")

/// A database with every migration applied, created once per test process and copied for each test.
enum MigratedTemplate {
    /// Kept for the whole process: dropping the `TestDatabase` would drop the template.
    private static let database = Mutex<TestDatabase?>(nil)

    static func databaseName() throws -> String {
        try database.withLock { database in
            if let database { return database.name }
            let created = try TestDatabase.create(name: "linkd_migrated_\(getpid())")
            let pool = ConnectionPool(parameters: created.parameters, maxConnections: 1, logger: .quiet)
            try Migrator(migrations: Migration.load(from: migrationsDirectory), logger: .quiet).migrate(using: pool)
            pool.shutdown()
            database = created
            return created.name
        }
    }
}

extension Logger {
    static let quiet = Logger(label: "test", level: .critical, sink: .discard)
}

/// A running `Application` on a loopback port, over a fresh migrated database; stopped by `close()`.
final class TestService: @unchecked Sendable {
    let database: TestDatabase?
    let application: Application
    var port: Int { application.port }

    /// A service over a fresh copy of the migrated template, or (with `parameters`) over that database.
    init(parameters: ConnectionParameters? = nil, configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        database = try parameters == nil ? TestDatabase.create(template: MigratedTemplate.databaseName()) : nil
        var configuration = Self.configuration(parameters ?? database!.parameters)
        configure(&configuration)
        application = try Application(configuration: configuration, logger: .quiet)
        try application.start()
    }

    /// A configuration on a free loopback port; migrations are applied only where the database lacks them.
    static func configuration(_ parameters: ConnectionParameters) -> ServiceConfiguration {
        var server = ServerConfiguration()
        server.port = 0
        var configuration = ServiceConfiguration(
            server: server, database: parameters, databasePoolSize: 4,
            migrationsDirectory: migrationsDirectory, migrateOnStart: true
        )
        // No background association checks unless a test asks (they would reach Apple's and Google's hosts).
        configuration.checkInterval = 0
        return configuration
    }

    /// Runs `body` with a fresh service and always stops it.
    static func with<T>(configure: (inout ServiceConfiguration) -> Void = { _ in }, _ body: (TestService) throws -> T) throws -> T {
        let service = try TestService(configure: configure)
        defer { service.close() }
        return try body(service)
    }

    func close() {
        application.shutdown()
        try? database?.drop()
    }

    /// A new key for `workspace` (created when missing).
    func key(workspace: String = "acme", scope: Scope = .admin) throws -> String {
        try Workspace.createKey(pool: application.pool, workspace: workspace, scope: scope)
    }

    /// One request over a fresh connection. `json` is sent with `Content-Type: application/json`; `body` (without
    /// `json`) as it is, with the `Content-Type` of `headers`.
    func request(
        _ method: String, _ path: String, key: String? = nil, json: String? = nil, body: String? = nil,
        headers: [(String, String)] = []
    ) throws -> TestResponse {
        var all = headers
        if let key { all.append(("Authorization", "Bearer \(key)")) }
        if json != nil { all.append(("Content-Type", "application/json")) }
        return try HTTPTestClient.request(port: port, method: method, path: path, headers: all, body: (json ?? body).map { Array($0.utf8) })
    }
}

extension TestResponse {
    /// The body parsed as JSON (fails the test when it is not).
    var json: JSONValue {
        get throws { try JSONValue.parse(bytes: body) }
    }
}
