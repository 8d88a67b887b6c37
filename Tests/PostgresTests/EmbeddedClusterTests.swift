import EmbeddedPostgres
import Foundation
import Observability
import Postgres
import Testing

/// A fresh directory under /tmp for a cluster of a test's own, removed by `cleanup`.
func makeTemporaryDirectory() -> URL {
    var template = Array("/tmp/linkd-cluster-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    return URL(fileURLWithPath: path)
}

/// PIDs of live processes whose command line mentions `text` (what `pgrep -f` does).
func processes(mentioning text: String) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return false }
        let cmdline = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
        return cmdline.contains(text) && pid != getpid()
    }
}

@Suite struct EmbeddedClusterTests {
    @Test func firstStartRestartReusingDataAndCleanStop() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = EmbeddedCluster(dataDirectory: directory, logger: testLogger(), durable: false)
        defer { cluster.stop() }

        try cluster.start()
        #expect(cluster.isRunning)
        #expect(FileManager.default.fileExists(atPath: cluster.pgdata.appendingPathComponent("PG_VERSION").path))
        #expect(FileManager.default.fileExists(atPath: cluster.socketDirectory.appendingPathComponent(".s.PGSQL.\(cluster.port)").path))
        let parameters = try ConnectionParameters(cluster.connectionString)
        let pool = ConnectionPool(parameters: parameters, maxConnections: 2, logger: testLogger())
        defer { pool.shutdown() }
        try pool.withConnection { try $0.execute("SELECT 1") }
        do {
            let connection = try Connection(parameters)
            try connection.executeScript("CREATE TABLE survivors (name text); INSERT INTO survivors VALUES ('before restart')")
            // Unix socket only: no TCP listener.
            #expect(try connection.query("SHOW listen_addresses")[0].decode(0, as: String.self) == "")
        }

        cluster.stop()
        #expect(!cluster.isRunning)
        #expect(!FileManager.default.fileExists(atPath: cluster.pgdata.appendingPathComponent("postmaster.pid").path))
        #expect(processes(mentioning: cluster.pgdata.path).isEmpty)
        cluster.stop() // idempotent
        #expect(throws: PostgresError.self) { try Connection(parameters) }

        try cluster.start()
        let connection = try Connection(parameters)
        #expect(try connection.query("SELECT name FROM survivors")[0].decode(0, as: String.self) == "before restart")
        // The pool's idle connection died with the old server; it is replaced transparently.
        #expect(try pool.withConnection { try $0.query("SELECT count(*) FROM survivors")[0].decode(0, as: Int.self) } == 1)
        #expect(pool.statistics.connectionsDiscardedTotal == 1)
    }

    @Test func staleLockFileFromACrashDoesNotPreventStart() throws {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = EmbeddedCluster(dataDirectory: directory, logger: testLogger(), durable: false)
        defer { cluster.stop() }
        try cluster.start()
        let pidFile = cluster.pgdata.appendingPathComponent("postmaster.pid")
        let lockFile = try String(contentsOf: pidFile, encoding: .utf8)
        cluster.stop()
        // After a crash and a reboot the recorded PID may belong to an unrelated live process: here, us.
        var lines = lockFile.split(separator: "\n", omittingEmptySubsequences: false)
        lines[0] = Substring(String(getpid()))
        try lines.joined(separator: "\n").write(to: pidFile, atomically: false, encoding: .utf8)
        try cluster.start()
        let connection = try Connection(ConnectionParameters(cluster.connectionString))
        #expect(try connection.query("SELECT 1")[0].decode(0, as: Int.self) == 1)
    }

    @Test func longDataDirectoryFallsBackToAShortSocketDirectory() {
        let deep = URL(fileURLWithPath: "/tmp/" + String(repeating: "d", count: 120))
        let cluster = EmbeddedCluster(dataDirectory: deep, logger: testLogger())
        #expect(cluster.socketDirectory.path.hasPrefix("/tmp/linkd-pg-"))
        #expect(cluster.connectionString.contains("host=\(cluster.socketDirectory.path) port=\(cluster.port)"))
        let other = EmbeddedCluster(dataDirectory: deep.appendingPathComponent("x"), logger: testLogger())
        #expect(other.port != cluster.port || other.socketDirectory != cluster.socketDirectory)
    }

    @Test func missingBinariesSayWhatToInstall() {
        let directory = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = EmbeddedCluster(
            dataDirectory: directory, logger: testLogger(), binDirectory: URL(fileURLWithPath: "/nonexistent/postgresql/bin")
        )
        #expect {
            try cluster.start()
        } throws: { error in
            guard let error = error as? EmbeddedPostgresError else { return false }
            return error.code == .binariesNotFound
                && error.description.contains("apt-get install postgresql")
                && error.description.contains("/nonexistent/postgresql/bin")
        }
        cluster.stop() // harmless when never started
    }
}

/// Root starting a cluster whose data directory is under a private folder (mode 0700, as `/root` is): the
/// server runs as `postgres`, which cannot enter it.
@Suite(.enabled(if: geteuid() == 0, "the server runs as another user only when we are root"))
struct EmbeddedClusterPrivateFolderTests {
    /// A directory of our own that every user may enter (mkdtemp makes them 0700).
    static func openTemporaryDirectory() -> URL {
        let directory = makeTemporaryDirectory()
        chmod(directory.path, 0o755)
        return directory
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test func theClusterMovesWhereThePostgresUserCanReachIt() throws {
        let home = makeTemporaryDirectory()
        let relocationRoot = Self.openTemporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: home)
            try? FileManager.default.removeItem(at: relocationRoot)
        }
        #expect(Self.mode(home.path) == 0o700)
        let dataDirectory = home.appendingPathComponent("app/.linkd")
        let cluster = EmbeddedCluster(dataDirectory: dataDirectory, logger: testLogger(), durable: false, relocationRoot: relocationRoot)
        defer { cluster.stop() }
        #expect(cluster.isRelocated)
        #expect(cluster.clusterDirectory.deletingLastPathComponent().path == relocationRoot.path)

        try cluster.start()
        #expect(cluster.pgdata.path.hasPrefix(relocationRoot.path + "/"))
        try Connection(ConnectionParameters(cluster.connectionString)).executeScript(
            "CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)")
        #expect(Self.mode(home.path) == 0o700, "the private folder is left as it was")
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: dataDirectory.appendingPathComponent("postgres").path)
        #expect(link == cluster.clusterDirectory.path)
        #expect(
            try String(contentsOf: cluster.clusterDirectory.appendingPathComponent("data-dir"), encoding: .utf8) == dataDirectory.path
                + "\n")
        cluster.stop()

        // The next start of the same data directory finds the same cluster.
        let again = EmbeddedCluster(dataDirectory: dataDirectory, logger: testLogger(), durable: false, relocationRoot: relocationRoot)
        defer { again.stop() }
        #expect(again.clusterDirectory.path == cluster.clusterDirectory.path)
        try again.start()
        #expect(try Connection(ConnectionParameters(again.connectionString)).query("SELECT n FROM kept")[0].decode(0, as: Int.self) == 7)
    }

    @Test func withNowhereToGoItSaysWhatToDoBeforeCreatingAnything() throws {
        let home = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let dataDirectory = home.appendingPathComponent("app/.linkd")
        let relocationRoot = home.appendingPathComponent("clusters")
        let cluster = EmbeddedCluster(dataDirectory: dataDirectory, logger: testLogger(), durable: false, relocationRoot: relocationRoot)
        #expect {
            try cluster.start()
        } throws: { error in
            guard let error = error as? EmbeddedPostgresError else { return false }
            return error.code == .unreachable && !error.message.contains("\n")
                && error.message.contains("cannot enter \(home.path)") && error.message.contains("--data-dir")
                && error.message.contains("DATABASE_URL")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "nothing was created")
    }

    @Test func aDataDirectoryThePostgresUserCanReachStaysWhereItIs() {
        let open = Self.openTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: open) }
        let cluster = EmbeddedCluster(dataDirectory: open.appendingPathComponent("app/.linkd"), logger: testLogger(), relocationRoot: open)
        #expect(!cluster.isRelocated)
        #expect(cluster.pgdata.path == open.appendingPathComponent("app/.linkd/pgdata").path)
    }
}
