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
    init(certificates: TestCertificates? = nil) throws {
        routesFile = FileManager.default.temporaryDirectory.appendingPathComponent("health-routes-\(UUID().uuidString).json")
        try Data("{}".utf8).write(to: routesFile)
        let tls = certificates.map { [$0.serverCertificate, $0.serverKey, "443"] } ?? []
        process = try Subprocess("/usr/bin/python3", [Self.script, routesFile.path] + tls)
        let words = try process.firstLine(startingWith: "listening ").split(separator: " ")
        address = String(words[1])
        port = Int(words[2]) ?? 0
    }

    deinit {
        process.signal(SIGKILL)
        _ = try? process.wait(timeout: 10)
        try? FileManager.default.removeItem(at: routesFile)
    }

    /// Answers `path` (with its query, or without to answer any query) with `status`, `body` (`repeat` times),
    /// the headers, after `delay` seconds.
    func route(
        _ path: String, status: Int = 200, body: String, contentType: String? = "application/json",
        headers: [(String, String)] = [], repeat count: Int = 1, delay: Double = 0
    ) throws {
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
    var requests: [(host: String, path: String)] { Self.requests(process.lines(startingWith: "request ")) }

    /// `requests` once it holds `count` (or after 5 s): the server logs a request after answering it.
    func requests(count: Int) -> [(host: String, path: String)] {
        Self.requests(process.lines(startingWith: "request ", awaiting: count))
    }

    private static func requests(_ lines: [Substring]) -> [(host: String, path: String)] {
        lines.compactMap { line in
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count == 3 else { return nil }
            return (String(words[1]), String(words[2]))
        }
    }
}
