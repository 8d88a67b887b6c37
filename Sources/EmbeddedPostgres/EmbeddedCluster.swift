import Foundation
import Observability
import Synchronization

/// A private PostgreSQL cluster run from the server binaries (`initdb`, `pg_ctl`): the embedded default of
/// `linkd serve` and the tests' own database server.
///
/// Layout under `dataDirectory`: `pgdata/` (the cluster), `socket/` (the unix socket; no TCP port is opened),
/// `postgresql.log`. When the socket path would be too long for `sun_path` (107 bytes), the socket goes to
/// a short per-cluster directory under `/tmp` instead. When running as root, the server runs as the
/// `postgres` user (initdb refuses root) via `runuser`, and the directories are given to that user; if
/// that user cannot reach the data directory (it is under a private home folder such as `/root`), those
/// three live in `clusterDirectory`, under `/var/lib/linkd`, instead (`ClusterLocation`).
public final class EmbeddedCluster: Sendable {
    private enum Status: Sendable, Equatable { case stopped, running, adopted }

    /// The directory the cluster belongs to (and, unless relocated, holds its files).
    public let dataDirectory: URL
    /// The directory holding `pgdata/`, `socket/` and the log: `dataDirectory`, or the relocated one.
    public let clusterDirectory: URL
    /// The server's port number: it names the socket file `.s.PGSQL.<port>`; no TCP port is opened.
    public let port: Int
    /// The directory of the unix socket.
    public let socketDirectory: URL
    private let logger: Logger
    private let requestedBinDirectory: URL?
    private let durable: Bool
    /// The cluster this one is a standby of (a libpq connection string), if any.
    private let primary: String?
    private let status = Mutex(Status.stopped)
    private let location: ClusterLocation

    /// Where a cluster goes when the server user cannot reach its data directory.
    public static let defaultRelocationRoot = URL(fileURLWithPath: "/var/lib/linkd")

    /// Describes a cluster; nothing happens on disk until `start()`.
    /// - Parameters:
    ///   - dataDirectory: where the cluster lives (created if missing); reused by later starts.
    ///   - logger: receives start/stop lines.
    ///   - binDirectory: the directory of `initdb`/`pg_ctl`/`postgres`; nil searches `$LINKD_PG_BIN`,
    ///     `pg_config --bindir`, the newest `/usr/lib/postgresql/<version>/bin`, then `PATH`.
    ///   - durable: false trades crash safety for speed (`initdb --no-sync`, `fsync=off`): for tests.
    ///   - relocationRoot: where the cluster goes, in a directory named after the data directory's path,
    ///     when we are root and the `postgres` user cannot reach `dataDirectory`.
    ///   - standbyOf: a libpq connection string of another cluster: on first use this one is made a streaming
    ///     standby of it (`pg_basebackup -R`, a read-only replica) instead of a new cluster.
    public init(
        dataDirectory: URL, logger: Logger, binDirectory: URL? = nil, durable: Bool = true,
        relocationRoot: URL = EmbeddedCluster.defaultRelocationRoot, standbyOf primary: String? = nil
    ) {
        self.primary = primary
        // Absolute: pg_ctl and the server run from "/" (see ProcessRunner), so relative paths would break.
        self.dataDirectory = dataDirectory.absoluteURL.standardizedFileURL
        self.logger = logger
        self.requestedBinDirectory = binDirectory
        self.durable = durable
        let path = self.dataDirectory.path
        // A stable per-cluster number (FNV-1a of the path, not Hasher, which is seeded per process), so a
        // restarted process finds the same socket and several clusters can share a fallback socket directory.
        var hash: UInt32 = 2_166_136_261
        for byte in path.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        self.port = 50_000 + Int(hash % 10_000)
        self.location = ClusterLocation.choose(
            for: self.dataDirectory, relocationRoot: relocationRoot.absoluteURL.standardizedFileURL,
            runAs: ServerUser.lookup())
        self.clusterDirectory = location.directory
        let preferred = clusterDirectory.appendingPathComponent("socket")
        // sun_path is 108 bytes including the NUL; the server also creates "<socket>.lock".
        if (preferred.path + "/.s.PGSQL.\(port).lock").utf8.count < 107 {
            self.socketDirectory = preferred
        } else {
            self.socketDirectory = URL(fileURLWithPath: "/tmp/linkd-pg-\(String(hash, radix: 16))")
        }
    }

    /// The cluster's files: `clusterDirectory/pgdata`.
    public var pgdata: URL { clusterDirectory.appendingPathComponent("pgdata") }
    /// The server log.
    public var logFile: URL { clusterDirectory.appendingPathComponent("postgresql.log") }
    /// Whether the cluster lives outside `dataDirectory`, because the server user cannot reach it.
    public var isRelocated: Bool { clusterDirectory.path != dataDirectory.path }

    /// libpq keyword form: `host=<socketdir> port=<port> user=postgres dbname=postgres`.
    public var connectionString: String {
        "host=\(socketDirectory.path) port=\(port) user=postgres dbname=postgres"
    }

    /// Whether `start()` succeeded and `stop()` has not run since.
    public var isRunning: Bool { status.withLock { $0 != .stopped } }

    /// Whether `start()` found the server already running and adopted it instead of starting it: another
    /// process (a `linkd serve`, or one that crashed) started it. A short-lived command must then leave it
    /// running when it is done.
    public var adoptedRunningServer: Bool { status.withLock { $0 == .adopted } }

    /// Creates the cluster on first use (`initdb`), then starts the server and waits until it accepts
    /// connections. Later starts reuse the data. A server left running by a crashed process is adopted;
    /// a stale `postmaster.pid` is removed.
    /// - Throws: `EmbeddedPostgresError` (`.binariesNotFound` says what to install; `.unreachable` says
    ///   which directory to choose instead), before anything is created on disk.
    public func start() throws {
        let tools = try PostgresTools.locate(requested: requestedBinDirectory)
        let runAs = try ServerUser.current()
        if let problem = location.problem { throw EmbeddedPostgresError(.unreachable, problem) }
        if let blocked = location.blockedAncestor {
            logger.notice(
                "the postgres user cannot reach the data directory: the cluster lives elsewhere",
                metadata: [
                    "db.data_dir": dataDirectory.path, "db.blocked": blocked, "db.cluster_dir": clusterDirectory.path,
                ])
        }
        try prepareDirectories(runAs: runAs)
        if !FileManager.default.fileExists(atPath: pgdata.appendingPathComponent("PG_VERSION").path) {
            if let primary { try basebackup(tools, from: primary, runAs: runAs) } else { try initdb(tools, runAs: runAs) }
        }
        if try isServerRunning(tools, runAs: runAs) {
            logger.notice("adopting running embedded PostgreSQL", metadata: ["db.pgdata": pgdata.path])
            status.withLock { $0 = .adopted }
            return
        } else {
            removeStalePIDFile()
            let started = Date()
            var options = "-p \(port) -k '\(socketDirectory.path)' -c listen_addresses=''"
            if !durable { options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off" }
            let result = try ProcessRunner.run(
                tools.pgCtl,
                [
                    "start", "-w", "-t", "60", "-D", pgdata.path, "-l", logFile.path, "-o", options,
                ], runAs: runAs)
            guard result.status == 0 else {
                throw EmbeddedPostgresError(
                    .startFailed,
                    "pg_ctl start failed (\(result.status)): \(result.output)"
                        + "\nserver log: \(logFile.path)\n\(tail(of: logFile))")
            }
            logger.info(
                "embedded PostgreSQL started",
                metadata: [
                    "db.pgdata": pgdata.path, "db.socket": socketDirectory.path,
                    "duration_ms": "\(Int(Date().timeIntervalSince(started) * 1000))",
                ])
        }
        status.withLock { $0 = .running }
    }

    /// Stops the server (`pg_ctl stop -m fast -w`: rolls back open transactions, disconnects clients,
    /// shuts down cleanly) and waits until it has exited. Idempotent; does nothing if it is not running.
    public func stop() {
        guard let tools = try? PostgresTools.locate(requested: requestedBinDirectory),
            let runAs = try? ServerUser.current()
        else { return }
        defer { status.withLock { $0 = .stopped } }
        guard FileManager.default.fileExists(atPath: pgdata.appendingPathComponent("postmaster.pid").path) else { return }
        do {
            let result = try ProcessRunner.run(tools.pgCtl, ["stop", "-D", pgdata.path, "-m", "fast", "-w", "-t", "60"], runAs: runAs)
            if result.status == 0 {
                logger.info("embedded PostgreSQL stopped", metadata: ["db.pgdata": pgdata.path])
            } else if !result.output.contains("Is server running?") {
                logger.error("pg_ctl stop failed", metadata: ["db.pgdata": pgdata.path, "output": result.output])
            }
        } catch {
            logger.error("pg_ctl stop failed", metadata: ["error": "\(error)"])
        }
    }

    // MARK: - Steps

    private func prepareDirectories(runAs: ServerUser?) throws {
        let fm = FileManager.default
        do {
            let relocationRoot = clusterDirectory.deletingLastPathComponent()
            if isRelocated, !fm.fileExists(atPath: relocationRoot.path) {
                // Ours: open for the server user to pass through, whatever the umask.
                try fm.createDirectory(at: relocationRoot, withIntermediateDirectories: true)
                _ = chmod(relocationRoot.path, 0o755)
            }
            try fm.createDirectory(at: clusterDirectory, withIntermediateDirectories: true)
            if isRelocated { try linkFromDataDirectory() }
            try fm.createDirectory(
                at: pgdata, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try fm.createDirectory(
                at: socketDirectory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            if !fm.fileExists(atPath: logFile.path) {
                _ = fm.createFile(atPath: logFile.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
        } catch {
            throw EmbeddedPostgresError(.fileSystem, "cannot create \(clusterDirectory.path): \(error.localizedDescription)")
        }
        guard let runAs else { return }
        // The server user must own pgdata, the socket directory and the log, and be able to reach them.
        for url in [pgdata, socketDirectory, logFile] where chown(url.path, runAs.uid, runAs.gid) != 0 {
            throw EmbeddedPostgresError(.fileSystem, "cannot give \(url.path) to user postgres: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if stat(clusterDirectory.path, &info) == 0, info.st_mode & 0o001 == 0 {
            _ = chmod(clusterDirectory.path, info.st_mode & 0o7777 | 0o011) // traversable, not listable
        }
    }

    /// Relocated: `dataDirectory/postgres` links to the cluster, and the cluster's `data-dir` file names
    /// the data directory it belongs to, so either is found from the other.
    private func linkFromDataDirectory() throws {
        let fm = FileManager.default
        try fm.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let link = dataDirectory.appendingPathComponent("postgres")
        switch try? fm.destinationOfSymbolicLink(atPath: link.path) {
        case clusterDirectory.path?: break
        case .some: // a link of ours to somewhere else: replaced (a file or folder of that name is left alone)
            try fm.removeItem(at: link)
            try fm.createSymbolicLink(at: link, withDestinationURL: clusterDirectory)
        case nil:
            if !fm.fileExists(atPath: link.path) { try fm.createSymbolicLink(at: link, withDestinationURL: clusterDirectory) }
        }
        try Data((dataDirectory.path + "\n").utf8).write(to: clusterDirectory.appendingPathComponent("data-dir"))
    }

    private func initdb(_ tools: PostgresTools, runAs: ServerUser?) throws {
        let started = Date()
        var arguments = ["-D", pgdata.path, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"]
        if !durable { arguments.append("--no-sync") }
        let result = try ProcessRunner.run(tools.initdb, arguments, runAs: runAs)
        guard result.status == 0 else {
            throw EmbeddedPostgresError(.initdbFailed, "initdb failed (\(result.status)): \(result.output)")
        }
        logger.info(
            "embedded PostgreSQL cluster created",
            metadata: [
                "db.pgdata": pgdata.path, "duration_ms": "\(Int(Date().timeIntervalSince(started) * 1000))",
            ])
    }

    /// Copies the primary's cluster and configures it to stream from it (`-R`: `standby.signal` and
    /// `primary_conninfo`), WAL included (`-X stream`).
    private func basebackup(_ tools: PostgresTools, from primary: String, runAs: ServerUser?) throws {
        var arguments = ["-D", pgdata.path, "-d", primary, "-R", "-X", "stream", "-c", "fast"]
        if !durable { arguments.append("--no-sync") }
        let result = try ProcessRunner.run(tools.pgBasebackup, arguments, runAs: runAs)
        guard result.status == 0 else {
            throw EmbeddedPostgresError(.initdbFailed, "pg_basebackup failed (\(result.status)): \(result.output)")
        }
    }

    private func isServerRunning(_ tools: PostgresTools, runAs: ServerUser?) throws -> Bool {
        guard FileManager.default.fileExists(atPath: pgdata.appendingPathComponent("postmaster.pid").path) else { return false }
        // pg_ctl: "status [...] If the server is running, the exit status is 0; if not, 3 [...] 4 if an
        // accessible data directory is not specified."
        return try ProcessRunner.run(tools.pgCtl, ["status", "-D", pgdata.path], runAs: runAs).status == 0
    }

    /// After a crash, `postmaster.pid` names a process that is gone, or (after a reboot or in a container)
    /// a PID now used by an unrelated process: the server would then refuse to start ("lock file already
    /// exists"). Only reached when `pg_ctl status` says our server is not running.
    private func removeStalePIDFile() {
        let pidFile = pgdata.appendingPathComponent("postmaster.pid")
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8),
            let pid = Int32(text.split(separator: "\n").first ?? "")
        else { return }
        let alive = kill(pid, 0) == 0 || errno == EPERM
        // The executable's name, when we may read it (we can for our own user's processes, and as root).
        var target = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/\(pid)/exe", &target, target.count - 1)
        let executable = length > 0 ? String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        let unrelated = executable.map { !($0 as NSString).lastPathComponent.hasPrefix("postgres") } ?? false
        if !alive || unrelated {
            logger.notice("removing stale postmaster.pid", metadata: ["db.pid": "\(pid)"])
            try? FileManager.default.removeItem(at: pidFile)
        }
    }

    private func tail(of file: URL) -> String {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return "" }
        return text.split(separator: "\n").suffix(10).joined(separator: "\n")
    }
}
