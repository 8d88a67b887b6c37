import Foundation
import Glibc
import Testing
import TestSupport

/// `linkd serve` as a child process, its stderr collected: the one way the command's tests run the server
/// (on the embedded cluster, on a test database, behind a front).
final class LinkdServer: @unchecked Sendable {
    /// The repository's `migrations/` folder.
    static let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("migrations").path

    let process: Subprocess

    /// Starts `linkd serve arguments...`: the built `linkd` unless `executable` names another copy, in
    /// `workingDirectory` when given.
    init(_ arguments: [String], executable: String = LinkdProcess.executable.path, workingDirectory: String? = nil) throws {
        process = try Subprocess(executable, ["serve"] + arguments, workingDirectory: workingDirectory)
    }

    /// Starts `linkd serve` on `database` (with the repository's migrations), listening on `port`, spooling in
    /// `spool`, with `options` after those.
    convenience init(database: TestDatabase, port: Int, spool: URL, options: [String] = []) throws {
        try self.init(
            [
                "--database-url", database.parameters.conninfo, "--listen", "127.0.0.1:\(port)", "--spool-dir", spool.path,
                "--migrations", Self.migrations,
            ] + options)
    }

    /// What the server logged.
    var output: String { process.standardError }

    /// The port from the "listening" log line (logged at info), once it is there.
    func port(timeout: Double = patience) throws -> Int {
        var port: Int?
        try waitUntil("linkd serve to start: \(output)", timeout: timeout) {
            for line in output.split(separator: "\n") where line.contains("\"listening\"") {
                if let range = line.range(of: #""http.port":""#) {
                    port = Int(line[range.upperBound...].prefix { $0.isNumber })!
                    return true
                }
            }
            guard process.isRunning else { throw TestFailure("linkd serve exited: \(output)") }
            return false
        }
        return port!
    }

    /// Waits until `/readyz` on `port` answers 200.
    func waitUntilReady(port: Int) throws {
        try waitUntil("linkd serve to become ready: \(output.suffix(2000))") {
            if (try? HTTPTestClient.request(port: port, method: "GET", path: "/readyz"))?.status == 200 { return true }
            guard process.isRunning else { throw TestFailure("linkd serve exited before it was ready: \(output.suffix(2000))") }
            return false
        }
    }

    /// Sends SIGTERM and waits for the exit status.
    func terminate(timeout: Double = 30) throws -> Int32 {
        process.signal(SIGTERM)
        return try process.wait(timeout: timeout)
    }

    /// A port nobody listens on right now.
    static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
