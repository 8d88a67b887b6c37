import Foundation
import Postgres
import Synchronization
import Testing
import TestSupport

/// `linkd serve` as a child process on a test database, with one link domain registered and serving: what
/// the fault tests signal under a load of clicks.
final class ServedLinkd: @unchecked Sendable {
    static let host = "links.example.com"

    let database: TestDatabase
    let spool = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-faults-\(UUID().uuidString.prefix(8))")
    let port = LinkdServer.freePort()
    private(set) var server: LinkdServer
    var process: Subprocess { server.process }

    /// Starts `linkd serve` on a fresh database, creates a key and the domain, and waits until clicks on it answer.
    init() throws {
        database = try TestDatabase.create()
        server = try Self.serve(database: database, spool: spool, port: port)
        try server.waitUntilReady(port: port)
        key = try createKey()
        let created = try HTTPTestClient.request(
            port: port, method: "POST", path: "/v1/domains",
            headers: [("Authorization", "Bearer \(key)"), ("Content-Type", "application/json")],
            body: Array(#"{"hostname":"\#(Self.host)","webFallbackUrl":"https://www.example.com"}"#.utf8))
        guard created.status == 201 else { throw TestFailure("POST /v1/domains: \(created.status) \(created.text)") }
        try waitUntil("clicks on the new domain to answer") {
            let probe = try HTTPTestClient.request(port: port, method: "GET", path: "/probe", headers: [("Host", Self.host)])
            if probe.status == 302 { probesAnswered += 1 }
            return probesAnswered > 0
        }
    }

    /// An admin key of the workspace.
    private(set) var key = ""

    /// A new key of the workspace `acme` (`linkd keys create`, with `options` such as `--scope read`).
    func createKey(_ options: [String] = []) throws -> String {
        try LinkdProcess.run(
            ["keys", "create", "--workspace", "acme"] + options
                + ["--database-url", database.parameters.conninfo, "--migrations", LinkdServer.migrations]
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Probe clicks answered while waiting for the domain to serve (each has its hit).
    private(set) var probesAnswered = 0

    /// Starts another `linkd serve` on the same database, spool and port (after the previous one has exited).
    func restart() throws {
        server = try Self.serve(database: database, spool: spool, port: port)
        try server.waitUntilReady(port: port)
    }

    func close() {
        if process.isRunning {
            process.signal(SIGKILL)
            _ = try? process.wait()
        }
        try? database.drop()
        try? FileManager.default.removeItem(at: spool)
    }

    /// Hits stored for the domain.
    func storedHits() throws -> Int {
        try Connection(database.parameters).query("SELECT count(*)::int8 FROM hits WHERE hostname = \(Self.host)").first!.decode(
            0, as: Int.self)
    }

    /// Spool segments left in the spool directory.
    var spoolSegments: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: spool.path)) ?? []).filter { $0.hasPrefix("segment-") }
    }

    /// The value of an unlabelled series on `/metrics`.
    func metric(_ name: String) throws -> Double? {
        let text = try HTTPTestClient.request(port: port, method: "GET", path: "/metrics").text
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    private static func serve(database: TestDatabase, spool: URL, port: Int) throws -> LinkdServer {
        try LinkdServer(database: database, port: port, spool: spool, options: ["--threads", "4", "--log-level", "info"])
    }
}

/// Clients clicking on the domain as fast as they can over keep-alive connections, until the server goes away.
/// Each client cycles over 100 paths: link traffic repeats itself, and a path never seen before costs the hit
/// writer a row of its own in the top-paths rollup.
final class ClickLoad: @unchecked Sendable {
    /// Clicks answered (each one's hit was accepted before its answer was sent).
    let answered = Atomic<Int>(0)
    let started = Date()
    private let finished = DispatchSemaphore(value: 0)
    let clients: Int

    init(port: Int, clients: Int = 4) {
        self.clients = clients
        for client in 0..<clients {
            Thread { [self] in
                defer { finished.signal() }
                guard let connection = try? HTTPTestClient(port: port, timeout: 10) else { return }
                var index = 0
                while true {
                    guard
                        let response = try? connection.request(
                            "GET", "/c\(client)/\(index % 100)", headers: [("Host", ServedLinkd.host), ("User-Agent", "curl/8")]),
                        response.status == 302
                    else { return }
                    answered.add(1, ordering: .relaxed)
                    index += 1
                }
            }.start()
        }
    }

    /// Waits until every client has seen the server go away.
    func waitForEnd() {
        for _ in 0..<clients { finished.wait() }
    }
}
