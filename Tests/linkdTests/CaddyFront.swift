import Foundation
import Glibc
import Postgres
import Testing
import TestSupport

/// Debian's `caddy` running `deploy/Caddyfile` on loopback ports in front of linkd nodes: the internal CA
/// instead of Let's Encrypt, no admin endpoint, storage in a temporary folder, nothing bound beyond 127.0.0.1.
final class CaddyFront: @unchecked Sendable {
    static let binary = "/usr/bin/caddy"
    static let caddyfile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("deploy/Caddyfile").path
    /// Whether the Caddy tests run: caddy is installed, or this is CI, where its absence must fail.
    static var enabled: Bool { FileManager.default.isExecutableFile(atPath: binary) || ProcessInfo.processInfo.environment["CI"] == "true" }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-caddy-\(UUID().uuidString.prefix(8))")
    let httpPort = LinkdServer.freePort()
    let httpsPort = LinkdServer.freePort()
    private let process: Subprocess

    /// Starts Caddy proxying to `upstreams` (linkd ports on 127.0.0.1), asking `askPort` before a certificate.
    init(upstreams: [Int], askPort: Int) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            throw TestFailure("\(Self.binary) is missing: run scripts/install-deps (Debian's caddy)")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let environment = [
            "HOME=\(directory.path)", "XDG_CONFIG_HOME=\(directory.path)/config", "XDG_DATA_HOME=\(directory.path)/data",
            "CADDY_ADMIN=off", "CADDY_BIND=127.0.0.1", "CADDY_HTTP_PORT=\(httpPort)", "CADDY_HTTPS_PORT=\(httpsPort)",
            "CADDY_STORAGE=\(directory.path)/storage", "CADDY_ISSUER=internal", "CADDY_HEALTH_INTERVAL=500ms",
            "LINKD_ASK=127.0.0.1:\(askPort)", "LINKD_UPSTREAMS=" + upstreams.map { "127.0.0.1:\($0)" }.joined(separator: " "),
        ]
        process = try Subprocess(
            "/usr/bin/env", ["-i"] + environment + [Self.binary, "run", "--config", Self.caddyfile, "--adapter", "caddyfile"],
            mergeErrors: true)
        try waitUntil("caddy to start: \(process.standardOutput.suffix(3000))") {
            guard process.isRunning else { throw TestFailure("caddy exited: \(process.standardOutput.suffix(3000))") }
            return FileManager.default.fileExists(atPath: rootCertificate) && Self.accepts(httpsPort) && Self.accepts(httpPort)
        }
    }

    /// The internal CA's root certificate, which curl is told to trust.
    var rootCertificate: String { directory.path + "/storage/pki/authorities/local/root.crt" }

    /// What Caddy logged (for failure messages).
    var log: String { process.standardOutput }

    func close() {
        process.signal(SIGTERM)
        _ = try? process.wait(timeout: 10)
        try? FileManager.default.removeItem(at: directory)
    }

    /// One curl request to `host` (resolved to 127.0.0.1) from the client address `from`.
    struct Answer {
        /// curl's exit status: 0, or e.g. 35 when the TLS handshake failed.
        let status: Int32
        let code: Int
        let contentType: String
        let redirects: Int
        let location: String
        let body: String
    }

    func curl(
        _ scheme: String = "https", host: String, path: String, from client: String = "127.0.0.1", userAgent: String = "curl/8"
    ) throws -> Answer {
        let port = scheme == "https" ? httpsPort : httpPort
        let marker = "\n--curl--"
        let process = try Subprocess(
            "/usr/bin/curl",
            [
                "-sS", "--max-time", "5", "--resolve", "\(host):\(port):127.0.0.1", "--cacert", rootCertificate, "--interface", client,
                "-A", userAgent, "-w", marker + "%{http_code}|%{content_type}|%{num_redirects}|%{redirect_url}",
                "\(scheme)://\(host):\(port)\(path)",
            ])
        let status = try process.wait(timeout: 10)
        let output = process.standardOutput
        guard let range = output.range(of: marker, options: .backwards) else {
            return Answer(status: status, code: 0, contentType: "", redirects: 0, location: "", body: "")
        }
        let fields = output[range.upperBound...].split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        return Answer(
            status: status, code: Int(fields[0]) ?? 0, contentType: fields[1], redirects: Int(fields[2]) ?? 0,
            location: fields.count > 3 ? fields[3] : "", body: String(output[..<range.lowerBound]))
    }

    static func accepts(_ port: Int) -> Bool {
        (try? HTTPTestClient(port: port, timeout: 1)).map {
            $0.close(); return true
        } ?? false
    }
}

/// A `linkd serve` node behind the front: `127.0.0.1` is its trusted proxy.
final class FrontedLinkd: @unchecked Sendable {
    let port = LinkdServer.freePort()
    let server: LinkdServer
    let spool = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-front-\(UUID().uuidString.prefix(8))")

    init(database: TestDatabase) throws {
        server = try LinkdServer(
            database: database, port: port, spool: spool, options: ["--trusted-proxies", "127.0.0.1", "--log-level", "warning"])
        try server.waitUntilReady(port: port)
    }

    /// An API call straight to this node.
    func api(_ method: String, _ path: String, key: String, json: String? = nil) throws -> TestResponse {
        try HTTPTestClient.request(
            port: port, method: method, path: path,
            headers: [("Authorization", "Bearer \(key)"), ("Content-Type", "application/json")], body: json.map { Array($0.utf8) })
    }

    /// A counter's value on `/metrics` (the line starting with `series`).
    func metric(_ series: String) throws -> Double {
        let text = try HTTPTestClient.request(port: port, method: "GET", path: "/metrics").text
        return text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last!) } ?? 0
    }

    func stop() {
        _ = try? server.terminate(timeout: 20)
        try? FileManager.default.removeItem(at: spool)
    }

    static func key(_ database: TestDatabase) throws -> String {
        try LinkdProcess.run([
            "keys", "create", "--workspace", "acme", "--database-url", database.parameters.conninfo, "--migrations", LinkdServer.migrations,
        ])
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
