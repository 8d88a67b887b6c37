import Foundation
import Glibc
import TestSupport

/// A real HTTP or HTTPS server on 127.0.0.1 (`Servers/outbound_server.py`, Python's http.server, wrapped in
/// TLS when given a certificate), standing in for Apple's CDN, Google's API or a link domain, which reports
/// every request it reads and from which client port.
final class LocalServer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Servers/outbound_server.py").path

    let process: Subprocess
    let port: Int

    /// Starts the server; with `certificate`, it speaks HTTPS only.
    init(certificate: TestCertificates? = nil) throws {
        let arguments = certificate.map { [$0.serverCertificate, $0.serverKey] } ?? []
        process = try Subprocess("/usr/bin/python3", [Self.script] + arguments)
        let deadline = Date().addingTimeInterval(10)
        while true {
            if let line = process.standardOutput.split(separator: "\n").first, line.hasPrefix("port "), let port = Int(line.dropFirst(5)) {
                self.port = port
                break
            }
            guard Date() < deadline, process.isRunning else {
                process.signal(SIGKILL)
                throw TestFailure("the test server did not start: \(process.standardOutput) \(process.standardError)")
            }
            usleep(10_000)
        }
    }

    deinit {
        process.signal(SIGKILL)
        _ = try? process.wait(timeout: 10)
    }

    /// The paths of the requests the server has read so far, in order.
    var requests: [String] { connections.map(\.path) }

    /// Each request read so far with the client port of its connection.
    var connections: [(path: String, clientPort: Int)] {
        process.standardOutput.split(separator: "\n").filter { $0.hasPrefix("request ") }.compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 4, let port = Int(words[3]) else { return nil }
            return (String(words[1]), port)
        }
    }

    /// `connections` once `count` requests have arrived (or after `seconds`).
    func connectionsAwaiting(_ count: Int, seconds: Double = 2) -> [(path: String, clientPort: Int)] {
        _ = requests(awaiting: count, seconds: seconds)
        return connections
    }

    /// The requests once `count` have arrived (or after `seconds`, whatever came): the server prints each line
    /// before it answers, and the test's reader of its output may be a moment behind.
    func requests(awaiting count: Int, seconds: Double = 2) -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while requests.count < count && Date() < deadline { usleep(10_000) }
        return requests
    }
}

/// A throwaway CA and a server certificate it signed for `app-site-association.cdn-apple.com` (and nothing
/// else), made with the openssl command line in a temporary folder.
struct TestCertificates {
    let directory: URL
    var caCertificate: String { directory.appendingPathComponent("ca.pem").path }
    var serverCertificate: String { directory.appendingPathComponent("server.pem").path }
    var serverKey: String { directory.appendingPathComponent("server.key").path }

    static let serverName = "app-site-association.cdn-apple.com"

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbound-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.path
        try "subjectAltName=DNS:\(Self.serverName)\nbasicConstraints=CA:FALSE\n"
            .write(toFile: path + "/server.ext", atomically: true, encoding: .utf8)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + curve + ["-keyout", path + "/ca.key", "-out", path + "/ca.pem", "-days", "2",
                          "-subj", "/CN=linkd test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                          "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Self.openssl(["req"] + curve + ["-keyout", path + "/server.key", "-out", path + "/server.csr",
                          "-subj", "/CN=\(Self.serverName)"])
        try Self.openssl(["x509", "-req", "-in", path + "/server.csr", "-CA", path + "/ca.pem", "-CAkey", path + "/ca.key",
                          "-CAcreateserial", "-out", path + "/server.pem", "-days", "2", "-extfile", path + "/server.ext"])
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = try Subprocess("/usr/bin/openssl", arguments, mergeErrors: true)
        guard try process.wait(timeout: 60) == 0 else { throw TestFailure("openssl \(arguments.joined(separator: " ")): \(process.standardOutput)") }
    }
}
