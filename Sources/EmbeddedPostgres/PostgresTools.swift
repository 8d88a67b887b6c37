import Foundation

/// The server binaries a cluster needs.
struct PostgresTools: Sendable {
    let directory: URL
    var initdb: URL { directory.appendingPathComponent("initdb") }
    var pgCtl: URL { directory.appendingPathComponent("pg_ctl") }
    var pgBasebackup: URL { directory.appendingPathComponent("pg_basebackup") }

    static let required = ["initdb", "pg_ctl", "postgres"]

    /// Finds the binaries: `requested` if given (and only it), else `$LINKD_PG_BIN`, `pg_config --bindir`,
    /// the newest `/usr/lib/postgresql/<version>/bin`, then each `PATH` entry.
    static func locate(requested: URL?) throws -> PostgresTools {
        var candidates: [URL] = []
        if let requested {
            candidates = [requested]
        } else {
            let environment = ProcessInfo.processInfo.environment
            if let bin = environment["LINKD_PG_BIN"], !bin.isEmpty { candidates.append(URL(fileURLWithPath: bin)) }
            if let bindir = pgConfigBindir() { candidates.append(URL(fileURLWithPath: bindir)) }
            let root = "/usr/lib/postgresql"
            let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
                .compactMap { Int($0) }.sorted(by: >)
            candidates += versions.map { URL(fileURLWithPath: "\(root)/\($0)/bin") }
            candidates += (environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        }
        for directory in candidates
        where required.allSatisfy({
            FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent($0).path)
        }) {
            return PostgresTools(directory: directory)
        }
        throw EmbeddedPostgresError(
            .binariesNotFound,
            """
            the PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found. \
            On Debian/Ubuntu install them with: apt-get install postgresql \
            (or point LINKD_PG_BIN at their directory, or set DATABASE_URL to use an existing server). \
            Searched: \(candidates.map(\.path).joined(separator: ", "))
            """)
    }

    private static func pgConfigBindir() -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/pg_config" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path, let result = try? ProcessRunner.run(URL(fileURLWithPath: path), ["--bindir"], runAs: nil),
            result.status == 0
        else { return nil }
        let bindir = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return bindir.isEmpty ? nil : bindir
    }
}

/// The user the server runs as: nil when not root (run as ourselves), `postgres` when root.
struct ServerUser: Sendable, Equatable {
    let uid: uid_t
    let gid: gid_t
    var name: String { "postgres" }

    static func current() throws -> ServerUser? {
        guard geteuid() == 0 else { return nil }
        guard let user = lookup() else {
            throw EmbeddedPostgresError(
                .userNotFound,
                """
                running as root, and PostgreSQL refuses to run as root, but there is no 'postgres' user to run it as. \
                Install the server package (apt-get install postgresql creates the user) or run linkd as another user.
                """)
        }
        return user
    }

    /// The `postgres` user when we are root and it exists; nil otherwise (`current()` says why).
    static func lookup() -> ServerUser? {
        guard geteuid() == 0, let entry = getpwnam("postgres") else { return nil }
        return ServerUser(uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }
}

/// Runs a command to completion and collects its combined output.
///
/// `posix_spawn` + `waitpid` rather than Foundation's `Process`: `Process.waitUntilExit` was seen to
/// hang here after `pg_ctl start` had exited (its SIGCHLD monitoring never saw the exit), and the server
/// started by `pg_ctl` must not inherit our descriptors (an HTTP listening socket, a test harness pipe):
/// everything above stderr is closed in the child.
enum ProcessRunner {
    struct Result: Sendable {
        let status: Int32
        let output: String
    }

    /// Runs `executable` with `arguments`, as `runAs` (via `runuser -u postgres --`) when given.
    static func run(_ executable: URL, _ arguments: [String], runAs: ServerUser?) throws -> Result {
        var argv: [String]
        if runAs != nil {
            let runuser =
                ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"]
                .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "/usr/sbin/runuser"
            argv = [runuser, "-u", "postgres", "--", executable.path] + arguments
        } else {
            argv = [executable.path] + arguments
        }
        let outputPath = "/tmp/linkd-pgctl-\(getpid())-\(UUID().uuidString).out"
        defer { unlink(outputPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // glibc: "posix_spawn_file_actions_addclosefrom_np [...] close all file descriptors greater than or
        // equal to fd"; and start in "/", since the postgres user may not be able to read our directory.
        // Both are GNU extensions hidden from Swift's Glibc module, so they are looked up at run time.
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") {
            typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
            _ = unsafeBitCast(symbol, to: ChangeDirectory.self)(&actions, "/")
        }

        let cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else {
            throw EmbeddedPostgresError(.binariesNotFound, "cannot run \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import: exit code in bits 8-15, signal in 0-6.
        let exitCode: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: exitCode, output: output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
