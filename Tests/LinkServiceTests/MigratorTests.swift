import Foundation
@testable import LinkService
import Postgres
import Synchronization
import Testing
import TestSupport

@Suite("Migrator")
struct MigratorTests {
    let migrations = try! Migration.load(from: migrationsDirectory)

    @Test func loadsNumberedFilesInOrder() throws {
        #expect(!migrations.isEmpty)
        #expect(migrations.map(\.version) == migrations.map(\.version).sorted())
        #expect(migrations.first?.version == 1)
    }

    /// Issue 46, item 7: the migrations built into linkd are the checkout's files, so a database migrated from the
    /// files has the checksums the built-in ones expect (SHA-256 of each file's bytes), and is not refused.
    @Test func theBuiltInMigrationsAreTheFilesWithTheirChecksums() throws {
        let builtIn = try Migration.builtIn()
        #expect(builtIn == migrations)
        for migration in builtIn {
            let name =
                String(repeating: "0", count: max(0, 4 - "\(migration.version)".count)) + "\(migration.version)_\(migration.name).sql"
            let bytes = try Data(contentsOf: migrationsDirectory.appendingPathComponent(name))
            #expect(migration.checksum == SHA256.hex(bytes), "\(name)")
        }
    }

    @Test func appliesOnceAndIsIdempotent() throws {
        try withTestDatabase { parameters in
            let pool = ConnectionPool(parameters: parameters, maxConnections: 2, logger: .quiet)
            defer { pool.shutdown() }
            let migrator = Migrator(migrations: migrations, logger: .quiet)
            #expect(try migrator.status(using: pool) == .pending(migrations.map(\.version)))
            #expect(try migrator.migrate(using: pool) == migrations.map(\.version))
            #expect(try migrator.migrate(using: pool) == [])
            #expect(try migrator.status(using: pool) == .current)
            let count = try pool.withConnection { try $0.query("SELECT count(*) FROM schema_migrations").first!.decode(0, as: Int.self) }
            #expect(count == migrations.count)
        }
    }

    @Test func concurrentRunnersApplyEachMigrationOnce() throws {
        try withTestDatabase { parameters in
            let results = ResultBox()
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let pool = ConnectionPool(parameters: parameters, maxConnections: 1, logger: .quiet)
                defer { pool.shutdown() }
                results.append(Result { try Migrator(migrations: migrations, logger: .quiet).migrate(using: pool) })
            }
            let applied = try results.all.map { try $0.get() }
            #expect(applied.flatMap { $0 }.sorted() == migrations.map(\.version))
            #expect(applied.filter { !$0.isEmpty }.count == 1)
        }
    }

    @Test func changedAppliedFileIsRefused() throws {
        try withTestDatabase { parameters in
            let pool = ConnectionPool(parameters: parameters, maxConnections: 1, logger: .quiet)
            defer { pool.shutdown() }
            try Migrator(migrations: migrations, logger: .quiet).migrate(using: pool)
            var edited = migrations
            edited[0] = Migration(version: edited[0].version, name: edited[0].name, sql: edited[0].sql + "\n-- edited\n")
            let migrator = Migrator(migrations: edited, logger: .quiet)
            #expect(throws: MigrationError.checksumMismatch(version: edited[0].version, name: edited[0].name)) {
                try migrator.migrate(using: pool)
            }
            guard case .invalid = try migrator.status(using: pool) else {
                Issue.record("status should report the inconsistency")
                return
            }
        }
    }

    @Test func unknownAppliedVersionIsRefused() throws {
        try withTestDatabase { parameters in
            let pool = ConnectionPool(parameters: parameters, maxConnections: 1, logger: .quiet)
            defer { pool.shutdown() }
            try Migrator(migrations: migrations, logger: .quiet).migrate(using: pool)
            #expect(throws: MigrationError.unknownAppliedVersion(migrations.last!.version)) {
                try Migrator(migrations: Array(migrations.dropLast()), logger: .quiet).migrate(using: pool)
            }
        }
    }

    @Test func failingMigrationRollsBackAndIsNotRecorded() throws {
        try withTestDatabase { parameters in
            let pool = ConnectionPool(parameters: parameters, maxConnections: 1, logger: .quiet)
            defer { pool.shutdown() }
            let broken = [Migration(version: 1, name: "broken", sql: "CREATE TABLE half_done (id int); SELECT * FROM no_such_table;")]
            #expect(throws: PostgresError.self) { try Migrator(migrations: broken, logger: .quiet).migrate(using: pool) }
            let tables = try pool.withConnection {
                try $0.query("SELECT count(*) FROM pg_tables WHERE tablename = 'half_done'").first!.decode(0, as: Int.self)
            }
            #expect(tables == 0)
            #expect(try Migrator(migrations: broken, logger: .quiet).status(using: pool) == .pending([1]))
        }
    }

    @Test("file names must be NNNN_name.sql")
    func invalidFileNames() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-migrations-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "SELECT 1;".write(to: directory.appendingPathComponent("first.sql"), atomically: true, encoding: .utf8)
        #expect(throws: MigrationError.invalidFileName("first.sql")) { try Migration.load(from: directory) }
    }
}

/// Collects results from concurrent workers.
final class ResultBox: Sendable {
    private let results = Mutex<[Result<[Int], any Error>]>([])
    func append(_ result: Result<[Int], any Error>) { results.withLock { $0.append(result) } }
    var all: [Result<[Int], any Error>] { results.withLock { $0 } }
}
