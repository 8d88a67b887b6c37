import Foundation
import Glibc
import LinkKit
import TestSupport

/// A real server standing in for a link domain's front (HTTPS on port 443 of a random loopback address, reached
/// through `--check-resolve`), or for Apple's CDN and Google's API (HTTP on 127.0.0.1): `health_server.py`, which
/// answers what `route(_:…)` last set and reports every request with its `Host`.
final class HealthServer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("health_server.py").path

    let process: Subprocess
    let address: String
    let port: Int
    private let routesFile: URL
    private var routes: [String: Any] = [:]

    /// With `certificates`, HTTPS on `<random 127.x.y.z>:443`; otherwise HTTP on 127.0.0.1 and a free port.
    init(certificates: HealthCertificates? = nil) throws {
        routesFile = FileManager.default.temporaryDirectory.appendingPathComponent("health-routes-\(UUID().uuidString).json")
        try Data("{}".utf8).write(to: routesFile)
        let tls = certificates.map { [$0.serverCertificate, $0.serverKey, "443"] } ?? []
        process = try Subprocess("/usr/bin/python3", [Self.script, routesFile.path] + tls)
        let deadline = Date().addingTimeInterval(10)
        while true {
            if let line = process.standardOutput.split(separator: "\n").first, line.hasPrefix("listening ") {
                let words = line.split(separator: " ")
                address = String(words[1])
                port = Int(words[2]) ?? 0
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
        try? FileManager.default.removeItem(at: routesFile)
    }

    /// Answers `path` (with its query, or without to answer any query) with `status`, `body` (`repeat` times),
    /// the headers, after `delay` seconds.
    func route(_ path: String, status: Int = 200, body: String, contentType: String? = "application/json",
               headers: [(String, String)] = [], repeat count: Int = 1, delay: Double = 0) throws {
        var all = headers.map { [$0.0, $0.1] }
        if let contentType { all.append(["Content-Type", contentType]) }
        routes[path] = ["status": status, "body": body, "headers": all, "repeat": count, "delay": delay] as [String: Any]
        let data = try JSONSerialization.data(withJSONObject: routes)
        let temporary = routesFile.appendingPathExtension("new")
        try data.write(to: temporary)
        _ = rename(temporary.path, routesFile.path)
    }

    func route(_ path: String, status: Int = 200, bytes: [UInt8], contentType: String? = "application/json") throws {
        try route(path, status: status, body: String(decoding: bytes, as: UTF8.self), contentType: contentType)
    }

    /// Every request read so far: the `Host` it named and its path with query.
    var requests: [(host: String, path: String)] {
        process.standardOutput.split(separator: "\n").filter { $0.hasPrefix("request ") }.compactMap { line in
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count == 3 else { return nil }
            return (String(words[1]), String(words[2]))
        }
    }

    /// `requests` once it holds `count` (or after 5 s): the server logs a request after answering it, and its
    /// output reaches this process a moment later than the client's answer.
    func requests(count: Int) -> [(host: String, path: String)] {
        let deadline = Date().addingTimeInterval(5)
        var seen = requests
        while seen.count < count && Date() < deadline {
            usleep(20_000)
            seen = requests
        }
        return seen
    }
}

/// A throwaway CA and a server certificate it signed for `names`, made with the openssl command line.
struct HealthCertificates {
    let directory: URL
    var caCertificate: String { directory.appendingPathComponent("ca.pem").path }
    var serverCertificate: String { directory.appendingPathComponent("server.pem").path }
    var serverKey: String { directory.appendingPathComponent("server.key").path }

    init(names: [String]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("health-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.path
        try "subjectAltName=\(names.map { "DNS:" + $0 }.joined(separator: ","))\nbasicConstraints=CA:FALSE\n"
            .write(toFile: path + "/server.ext", atomically: true, encoding: .utf8)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.openssl(["req", "-x509"] + curve + ["-keyout", path + "/ca.key", "-out", path + "/ca.pem", "-days", "2",
                          "-subj", "/CN=linkd health test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                          "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Self.openssl(["req"] + curve + ["-keyout", path + "/server.key", "-out", path + "/server.csr", "-subj", "/CN=\(names[0])"])
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
