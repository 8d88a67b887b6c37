import Foundation
import Glibc
import Postgres
import Synchronization
import Testing
import TestSupport

/// `linkd serve` under a load of clicks gets SIGTERM: every click that was answered (so its hit was
/// accepted) is in the database when the process has exited.
@Suite("linkd serve: SIGTERM during a load of hits")
struct ServeSIGTERMHitsTests {
    static let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("migrations").path

    /// A port nobody listens on right now.
    static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func everyAnsweredClickIsWrittenBeforeExit() throws {
        let database = try TestDatabase.create()
        defer { try? database.drop() }
        let spool = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-sigterm-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: spool) }
        let port = Self.freePort()
        let conninfo = database.parameters.conninfo

        let process = try Subprocess(LinkdProcess.executable.path,
                                     ["serve", "--database-url", conninfo, "--listen", "127.0.0.1:\(port)", "--spool-dir", spool.path,
                                      "--migrations", Self.migrations, "--threads", "4", "--log-level", "info"])
        defer { if process.isRunning { process.signal(SIGKILL); _ = try? process.wait() } }

        var ready = false
        for _ in 0..<200 where !ready {
            ready = (try? HTTPTestClient.request(port: port, method: "GET", path: "/readyz"))?.status == 200
            if !ready { usleep(50_000) }
        }
        try #require(ready)
        let key = try LinkdProcess.run(["keys", "create", "--workspace", "acme", "--database-url", conninfo, "--migrations", Self.migrations])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let created = try HTTPTestClient.request(port: port, method: "POST", path: "/v1/domains",
                                                 headers: [("Authorization", "Bearer \(key)"), ("Content-Type", "application/json")],
                                                 body: Array(#"{"hostname":"links.example.com","webFallbackUrl":"https://www.example.com"}"#.utf8))
        #expect(created.status == 201, "\(created.text)")
        let answered = Atomic<Int>(0)
        var serving = false
        for _ in 0..<200 where !serving {   // the catalog picks the domain up through NOTIFY
            let probe = try HTTPTestClient.request(port: port, method: "GET", path: "/probe", headers: [("Host", "links.example.com")])
            serving = probe.status == 302
            if serving { answered.add(1, ordering: .relaxed) } else { usleep(20_000) }
        }
        try #require(serving)

        // Four clients click as fast as they can over keep-alive connections until the server goes away.
        let finished = DispatchSemaphore(value: 0)
        for client in 0..<4 {
            Thread {
                defer { finished.signal() }
                guard let connection = try? HTTPTestClient(port: port, timeout: 10) else { return }
                var index = 0
                while true {
                    guard let response = try? connection.request("GET", "/c\(client)/\(index)", headers: [("Host", "links.example.com"), ("User-Agent", "curl/8")]),
                          response.status == 302 else { return }
                    answered.add(1, ordering: .relaxed)
                    index += 1
                }
            }.start()
        }
        usleep(1_500_000)
        process.signal(SIGTERM)
        let status = try process.wait(timeout: 60)
        for _ in 0..<4 { finished.wait() }
        #expect(status == 0)
        let text = process.standardError
        #expect(text.contains("hit writer stopped"))
        #expect(!text.contains("hits lost"))

        let stored = try Connection(database.parameters).query("SELECT count(*)::int8 FROM hits WHERE hostname = 'links.example.com'")
            .first!.decode(0, as: Int.self)
        let acknowledged = answered.load(ordering: .relaxed)
        #expect(acknowledged > 100)
        // Every answered click is stored; at most one in-flight click per client was accepted without its answer arriving.
        #expect(stored >= acknowledged)
        #expect(stored <= acknowledged + 4)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: spool.path))?.filter { $0.hasPrefix("segment-") } ?? []
        #expect(left.isEmpty)
    }
}
