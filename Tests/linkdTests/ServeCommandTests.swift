import Foundation
import TestSupport
import Testing

/// `linkd serve` as an operator runs it: the embedded PostgreSQL default, readiness, SIGTERM, restart.
@Suite("linkd serve with the embedded cluster", .serialized)
struct ServeCommandTests {
    /// `linkd serve` on the embedded cluster under `dataDirectory`, on a port of its choosing.
    static func serve(dataDirectory: String, options: [String] = []) throws -> LinkdServer {
        try LinkdServer(["--listen", "127.0.0.1:0", "--data-dir", dataDirectory, "--log-level", "info"] + options)
    }

    /// PostgreSQL processes whose command line names `directory`.
    static func postgresProcesses(under directory: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
            let command = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return command.contains("postgres") && command.contains(directory) ? command : nil
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func firstStartReadinessKeysTerminationAndRestart() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-serve-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let first = try Self.serve(dataDirectory: directory)
        let port = try first.port()
        let ready = try HTTPTestClient.request(port: port, method: "GET", path: "/readyz")
        #expect(ready.status == 200, "\(ready.text)")
        #expect(FileManager.default.fileExists(atPath: directory + "/pgdata/PG_VERSION"))

        // Another command on the same data directory uses the running cluster and leaves it running.
        let created = try LinkdProcess.run(["keys", "create", "--workspace", "acme", "--data-dir", directory])
        #expect(created.status == 0, "\(created.stderr)")
        let key = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.hasPrefix("lk_"))
        let teams = try HTTPTestClient.request(port: port, method: "GET", path: "/v1/teams", headers: [("Authorization", "Bearer \(key)")])
        #expect(teams.status == 200)

        #expect(try first.terminate() == 0)
        #expect(Self.postgresProcesses(under: directory).isEmpty, "no PostgreSQL left behind")

        // A restart reuses the data: the key made before still works.
        let second = try Self.serve(dataDirectory: directory)
        let secondPort = try second.port()
        let again = try HTTPTestClient.request(
            port: secondPort, method: "GET", path: "/v1/teams", headers: [("Authorization", "Bearer \(key)")])
        #expect(again.status == 200)
        #expect(!second.output.contains("initdb"), "the cluster is not initialised twice")
        #expect(try second.terminate() == 0)
        #expect(Self.postgresProcesses(under: directory).isEmpty)
    }

    /// Issue 27: a second `linkd serve` on the same data directory adopted the first one's cluster, failed on the
    /// spool lock and stopped the cluster on its way out, leaving the first without a database for good. Now it
    /// refuses at once, saying why, and touches nothing: the first keeps serving from its database.
    @Test(.timeLimit(.minutes(3)))
    func aSecondServerOnTheSameDataDirectoryRefusesAndLeavesTheFirstAlone() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-serve-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try Self.serve(dataDirectory: directory)
        defer { _ = try? first.terminate() }
        let port = try first.port()
        #expect(try HTTPTestClient.request(port: port, method: "GET", path: "/readyz").status == 200)

        let started = Date()
        let second = try Self.serve(dataDirectory: directory)
        let status = try second.process.wait(timeout: 30)
        let seconds = Date().timeIntervalSince(started)
        #expect(status != 0)
        #expect(seconds < 10, "took \(seconds) s")
        #expect(second.output.contains("already in use"), "\(second.output.suffix(1500))")
        #expect(!second.output.contains("adopting running embedded PostgreSQL"), "the second touched the first's cluster")

        // The first still has its database, and keeps it: the second has exited, so whatever it did to the
        // cluster is done (stopping one waits for it to stop), and /readyz asks the database.
        let ready = try HTTPTestClient.request(port: port, method: "GET", path: "/readyz")
        #expect(ready.status == 200, "\(ready.text)")
        #expect(try first.terminate() == 0)
        #expect(Self.postgresProcesses(under: directory).isEmpty, "no PostgreSQL left behind")
    }

    /// Root in a private home folder (mode 0700, as `/root` is in containers): the `postgres` user cannot
    /// enter it, so the cluster lives under /var/lib/linkd, and the folder is left as it was.
    @Test(.timeLimit(.minutes(3)), .enabled(if: geteuid() == 0, "the server runs as postgres only when we are root"))
    func servesAsRootFromAPrivateHomeFolder() throws {
        var template = Array("/tmp/linkd-home-XXXXXX".utf8CString)
        let home = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        let directory = home + "/app/.linkd"
        var cluster: String?
        defer {
            try? FileManager.default.removeItem(atPath: home)
            if let cluster { try? FileManager.default.removeItem(atPath: cluster) }
        }

        let first = try Self.serve(dataDirectory: directory)
        let port = try first.port()
        cluster = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/postgres")
        let ready = try HTTPTestClient.request(port: port, method: "GET", path: "/readyz")
        #expect(ready.status == 200, "\(ready.text)")
        let location = try #require(cluster, "\(first.output)")
        #expect(location.hasPrefix("/var/lib/linkd/"))
        #expect(FileManager.default.fileExists(atPath: location + "/pgdata/PG_VERSION"))
        #expect(!first.output.contains("Permission denied"))
        #expect(first.output.contains("cluster created"))
        var info = stat()
        #expect(stat(home, &info) == 0 && info.st_mode & 0o7777 == 0o700, "the home folder is not chmod-ed")
        #expect(try first.terminate() == 0)
        #expect(Self.postgresProcesses(under: location).isEmpty, "no PostgreSQL left behind")

        let second = try Self.serve(dataDirectory: directory)
        _ = try second.port()
        #expect(!second.output.contains("cluster created"), "the same cluster is used again")
        #expect(try second.terminate() == 0)
        #expect(Self.postgresProcesses(under: location).isEmpty)
    }

    /// `--connection-limit` and `--header-timeout` reach the server: silent sockets beyond the limit make room
    /// for `/healthz`, are closed at the header deadline, and `/metrics` counts both.
    @Test(.timeLimit(.minutes(2)))
    func connectionLimitAndHeaderTimeoutOptions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-serve-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try Self.serve(dataDirectory: directory, options: ["--connection-limit", "8", "--header-timeout", "2"])
        let port = try server.port()
        let silent = try (0..<12).map { _ in try HTTPTestClient(port: port, timeout: 5) }
        // A moment for linkd to take them in: nothing shows it from outside without a connection of its own,
        // which would count against the limit and change what is measured.
        usleep(200_000)
        let start = Date()
        let health = try HTTPTestClient.request(port: port, path: "/healthz", timeout: 2)
        #expect(health.status == 200)
        #expect(Date().timeIntervalSince(start) < 1)
        #expect(silent.filter { $0.waitForClose(timeout: 3.5) }.count == silent.count)
        let metrics = try HTTPTestClient.request(port: port, path: "/metrics").text
        #expect(metrics.contains(#"linkd_http_connections_dropped_total{reason="evicted_unfinished"} 5"#), "\(metrics)")
        #expect(metrics.contains(#"linkd_http_connections_dropped_total{reason="header_timeout"} 7"#), "\(metrics)")
        #expect(metrics.contains("linkd_http_connections_open 1"))
        #expect(try server.terminate() == 0)
    }

    @Test(.timeLimit(.minutes(2)))
    func migrateAppliesPendingMigrationsOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-migrate-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pending = try LinkdProcess.run(["migrate", "--status", "--data-dir", directory])
        #expect(pending.status == 0, "\(pending.stderr)")
        #expect(pending.stdout.hasPrefix("migrations: pending 1,"))
        let applied = try LinkdProcess.run(["migrate", "--data-dir", directory])
        #expect(applied.stdout.hasPrefix("migrations: applied 1,"))
        #expect(try LinkdProcess.run(["migrate", "--data-dir", directory]).stdout == "migrations: already current\n")
        #expect(try LinkdProcess.run(["migrate", "--status", "--data-dir", directory]).stdout.hasPrefix("migrations: current"))
        #expect(Self.postgresProcesses(under: directory).isEmpty, "a one-off command stops the cluster it started")
    }

    @Test func usageErrorsExitWith2() throws {
        #expect(try LinkdProcess.run(["serve", "--listen", "nonsense"]).status == 2)
        #expect(try LinkdProcess.run(["serve", "--bogus"]).status == 2)
        #expect(try LinkdProcess.run(["keys", "create"]).status == 2)
        let help = try LinkdProcess.run(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("LINKD_LISTEN"))
    }
}
