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
        cluster.stop()  // idempotent
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
        cluster.stop()  // harmless when never started
    }
}
