import Foundation
import Glibc
import TestSupport

/// A real HTTP or HTTPS server on 127.0.0.1 (`Servers/outbound_server.py`, Python's http.server, wrapped in
/// TLS when given a certificate), standing in for Apple's CDN, Google's API, a link domain or a webhook's
/// receiver, which reports every connection it accepts, every request it reads and from which client port, and
/// every POST whole.
final class LocalServer {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Servers/outbound_server.py").path

    let process: Subprocess
    let port: Int

    /// Starts the server; with `certificate`, it speaks HTTPS only.
    init(certificate: TestCertificates? = nil) throws {
        let arguments = certificate.map { [$0.serverCertificate, $0.serverKey] } ?? []
        process = try Subprocess("/usr/bin/python3", [Self.script] + arguments)
        port = try process.announcedPort(of: "the test server")
    }

    deinit {
        process.signal(SIGKILL)
        _ = try? process.wait(timeout: 10)
    }

    /// The paths of the requests the server has read so far, in order.
    var requests: [String] { connections.map(\.path) }

    /// Each request read so far with the client port of its connection.
    var connections: [(path: String, clientPort: Int)] {
        process.lines(startingWith: "request ").compactMap { line in
            let words = line.split(separator: " ")
            guard words.count == 4, let port = Int(words[3]) else { return nil }
            return (String(words[1]), port)
        }
    }

    /// The client ports of the connections accepted so far (a connection that never sent a request included).
    var acceptedConnections: [Int] {
        process.lines(startingWith: "connection from ").compactMap { Int($0.dropFirst("connection from ".count)) }
    }

    /// A POST as the server read it.
    struct Received: Decodable {
        let method: String
        let path: String
        /// Names in lower case.
        let headers: [String: String]
        /// The body's length, and its bytes in hex when it is at most 4 KiB (empty otherwise).
        let length: Int
        let body: String

        var bodyBytes: [UInt8] {
            let digits = Array(body.utf8)
            return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
        }
    }

    /// The POSTs read, once `count` have arrived (or after `seconds`, whatever came).
    func received(awaiting count: Int, seconds: Double = patience) throws -> [Received] {
        try process.lines(startingWith: "received ", awaiting: count, seconds: seconds).map { line in
            try JSONDecoder().decode(Received.self, from: Data(line.dropFirst("received ".count).utf8))
        }
    }

    /// `connections` once `count` requests have arrived (or after `seconds`).
    func connectionsAwaiting(_ count: Int, seconds: Double = patience) -> [(path: String, clientPort: Int)] {
        _ = requests(awaiting: count, seconds: seconds)
        return connections
    }

    /// The requests once `count` have arrived (or after `seconds`, whatever came): the server prints each line
    /// before it answers, and the test's reader of its output may be a moment behind.
    func requests(awaiting count: Int, seconds: Double = patience) -> [String] {
        _ = process.lines(startingWith: "request ", awaiting: count, seconds: seconds)
        return requests
    }

    /// Sends `GET /marker` on a connection of its own and waits until the server reports it. The server reports in
    /// order, and a request it read before the marker is reported before it: a test asserting that a request was
    /// never made (or a connection never opened) asserts it after the marker, not after a pause.
    func mark() throws {
        _ = try HTTPTestClient.request(port: port, path: "/marker")
        try waitUntil("the server to report the marker: \(requests)") { requests.contains("/marker") }
    }
}

extension TestCertificates {
    /// The one name the outbound tests' certificate is for: Apple's CDN, reached through a resolve override.
    static let serverName = "app-site-association.cdn-apple.com"

    init() throws {
        try self.init(names: [Self.serverName])
    }
}
