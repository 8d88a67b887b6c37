import Foundation
import Glibc
import LinkKit
import TestSupport

/// A real receiver of webhooks (`webhook_receiver.py`): HTTP on 127.0.0.1, every delivery verified with the
/// Standard Webhooks reference library for Python (`standardwebhooks`, from scripts/install-deps), answering the
/// statuses it is told in turn, then 200.
final class WebhookReceiver {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("webhook_receiver.py").path

    /// What one request carried.
    struct Delivery {
        let id: String
        let timestamp: String
        let verified: Bool
        let status: Int
        let contentType: String?
        let body: JSONValue

        var type: String? { body["type"]?.stringValue }
        var data: JSONValue? { body["data"] }
    }

    let process: Subprocess
    let port: Int
    let controlFile: URL

    /// A receiver on `port` (0: a free one) verifying with `secret`, answering `statuses` first; with
    /// `controlFile`, one that takes over that file as it stands (a receiver started again).
    init(
        port: Int = 0, secret: String = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", statuses: [Int] = [],
        controlFile: URL? = nil
    ) throws {
        let file = controlFile ?? FileManager.default.temporaryDirectory.appendingPathComponent("webhook-\(UUID().uuidString).json")
        self.controlFile = file
        if controlFile == nil { try Self.write(file, secret: secret, statuses: statuses) }
        process = try Subprocess(WebhookSignatureTests.python, [Self.script, file.path, String(port)])
        let words = try process.firstLine(startingWith: "listening ").split(separator: " ")
        self.port = Int(words[2]) ?? 0
    }

    deinit { stop() }

    /// Stops listening: deliveries fail to connect until a receiver listens again.
    func stop() {
        process.signal(SIGKILL)
        _ = try? process.wait(timeout: 10)
    }

    /// The URL subscriptions send to.
    var url: String { "http://127.0.0.1:\(port)/hooks" }

    /// What the receiver verifies with and answers, and the seconds it waits before answering (both counted
    /// from its start).
    func control(secret: String, statuses: [Int] = [], delays: [Double] = []) throws {
        try Self.write(controlFile, secret: secret, statuses: statuses, delays: delays)
    }

    private static func write(_ file: URL, secret: String, statuses: [Int], delays: [Double] = []) throws {
        let data = try JSONSerialization.data(withJSONObject: ["secret": secret, "statuses": statuses, "delays": delays])
        let temporary = file.appendingPathExtension("new")
        try data.write(to: temporary)
        _ = rename(temporary.path, file.path)
    }

    /// The event ids of the requests that arrived, once there are `count` (answered or not).
    func arrivals(count: Int, seconds: Double = 90) -> [String] {
        process.lines(startingWith: "arrived ", awaiting: count, seconds: seconds).map { String($0.dropFirst("arrived ".count)) }
    }

    /// The requests answered so far.
    var deliveries: [Delivery] { Self.parse(process.lines(startingWith: "delivery ")) }

    /// The requests once there are `count` (or after `seconds`: generous, for a busy machine).
    func deliveries(count: Int, seconds: Double = 90) -> [Delivery] {
        Self.parse(process.lines(startingWith: "delivery ", awaiting: count, seconds: seconds))
    }

    private static func parse(_ lines: [Substring]) -> [Delivery] {
        lines.compactMap { line in
            guard let json = try? JSONValue.parse(String(line.dropFirst("delivery ".count))),
                let body = json["body"]?.stringValue, let parsed = try? JSONValue.parse(body)
            else { return nil }
            return Delivery(
                id: json["id"]?.stringValue ?? "", timestamp: json["timestamp"]?.stringValue ?? "",
                verified: json["verified"] == .bool(true), status: json["status"]?.integer ?? 0,
                contentType: json["contentType"]?.stringValue, body: parsed)
        }
    }
}

extension JSONValue {
    /// The number as a whole number, if it is one.
    var integer: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }
}
