import Foundation
import Glibc

/// A real SMTP server on 127.0.0.1 (`Servers/smtp_server.py`, Debian's python3-aiosmtpd) that reports every
/// message it accepts: plain, with STARTTLS required, or TLS from the first byte (`smtps`).
public final class SMTPTestServer: @unchecked Sendable {
    // @unchecked: `process` and `port` are set once in `init`; the process's output is behind its own lock.
    public enum Mode: String, Sendable {
        case plain, starttls, smtps
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Servers/smtp_server.py").path

    let process: Subprocess
    public let port: Int

    /// Starts the server; `certificates` are needed for `starttls` and `smtps`; with `credentials`, a client must
    /// authenticate (over TLS) before sending.
    public init(_ mode: Mode = .plain, certificates: TestCertificates? = nil, credentials: (user: String, password: String)? = nil) throws {
        var arguments = [Self.script, mode.rawValue]
        if let certificates { arguments += [certificates.serverCertificate, certificates.serverKey] }
        if let credentials { arguments += ["--auth", "\(credentials.user):\(credentials.password)"] }
        process = try Subprocess("/usr/bin/python3", arguments)
        port = try process.announcedPort(of: "the SMTP server")
    }

    deinit {
        process.signal(SIGKILL)
        _ = try? process.wait(timeout: 10)
    }

    /// A message as the server accepted it.
    public struct Message: Decodable, Sendable {
        public let from: String
        public let to: [String]
        /// Whether the session was encrypted (STARTTLS or smtps).
        public let tls: Bool
        public let authenticated: Bool
        /// The message: headers and body, as sent.
        public let data: String

        /// The body after the headers, decoded when it was sent in base64.
        public var body: String {
            guard let end = data.range(of: "\r\n\r\n") ?? data.range(of: "\n\n") else { return data }
            let body = String(data[end.upperBound...])
            guard data[..<end.lowerBound].lowercased().contains("content-transfer-encoding: base64") else { return body }
            let joined = body.split(whereSeparator: \.isNewline).joined()
            return Data(base64Encoded: joined).flatMap { String(data: $0, encoding: .utf8) } ?? body
        }

        /// The value of the header `name` (the first such field), unfolded.
        public func header(_ name: String) -> String? {
            let head = data.components(separatedBy: "\r\n\r\n").first ?? data
            let unfolded = head.replacingOccurrences(of: "\r\n ", with: " ").replacingOccurrences(of: "\r\n\t", with: " ")
            let prefix = name.lowercased() + ":"
            return unfolded.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(prefix) }
                .map { String($0.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The messages accepted so far, once `count` have arrived (or after `seconds`, whatever came).
    public func messages(awaiting count: Int, seconds: Double = patience) throws -> [Message] {
        try process.lines(startingWith: "received ", awaiting: count, seconds: seconds).map { line in
            try JSONDecoder().decode(Message.self, from: Data(line.dropFirst("received ".count).utf8))
        }
    }

    /// The messages accepted so far.
    public var messages: [Message] {
        get throws { try messages(awaiting: 0, seconds: 0) }
    }
}
