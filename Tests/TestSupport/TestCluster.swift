import EmbeddedPostgres
import Foundation
import Observability
import Postgres
import Synchronization

/// The database server of this test process: `DATABASE_URL` when set, otherwise one private
/// `EmbeddedCluster` created lazily in a fresh directory under `/tmp` (initdb ~1.4 s, once per process)
/// and stopped when the process exits.
///
/// Tests do not connect to it directly: they ask for a fresh database with `withTestDatabase { ... }`
/// or `TestDatabase.create()`.
public enum TestCluster {
    /// The server: either an external URL or our own cluster. Started on first access.
    private static let server: Result<(parameters: ConnectionParameters, cluster: EmbeddedCluster?), TestClusterError> = {
        if let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty {
            do {
                return .success((try ConnectionParameters(url), nil))
            } catch {
                return .failure(TestClusterError("DATABASE_URL is not a valid connection string: \(error)"))
            }
        }
        var template = Array("/tmp/linkd-tests-XXXXXX".utf8CString)
        guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else {
            return .failure(TestClusterError("mkdtemp failed"))
        }
        let cluster = EmbeddedCluster(
            dataDirectory: URL(fileURLWithPath: path),
            logger: Logger(label: "linkd.tests.cluster", level: .warning),
            durable: false
        )
        do {
            try cluster.start()
        } catch {
            return .failure(TestClusterError("cannot start the test cluster: \(error)"))
        }
        atexit {
            TestCluster.stopAtExit()
        }
        do {
            return .success((try ConnectionParameters(cluster.connectionString), cluster))
        } catch {
            return .failure(TestClusterError("bad cluster connection string: \(error)"))
        }
    }()

    /// Parameters for the server's maintenance database (`postgres`): for creating and dropping databases.
    /// - Throws: `TestClusterError` when the cluster cannot be started.
    public static func adminParameters() throws -> ConnectionParameters {
        try server.get().parameters
    }

    /// The private cluster, nil when `DATABASE_URL` points elsewhere.
    public static func embeddedCluster() throws -> EmbeddedCluster? {
        try server.get().cluster
    }

    /// Runs `body` on a fresh connection to the maintenance database.
    public static func withAdminConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try Connection(adminParameters())
        return try body(connection)
    }

    private static func stopAtExit() {
        guard case .success(let server) = server, let cluster = server.cluster else { return }
        cluster.stop()
        try? FileManager.default.removeItem(at: cluster.dataDirectory)
    }
}

/// The test cluster could not be set up.
public struct TestClusterError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
