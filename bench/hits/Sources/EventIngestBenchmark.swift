import Foundation
import HTTPServer
import LinkService
import Observability
import Postgres
import Synchronization
import TestSupport

/// Events through the whole path a client uses (docs/EVENTS.md, "Storing"): `POST /v1/events` batches over HTTP on
/// loopback to a running `Application`, checked, queued, attributed in batches and written with COPY by the event
/// writer; timed from the first request to the last event in the table. Next to it, in the same run, a raw `COPY`
/// of the same rows (the columns the writer sends, values as it stores them) into the same `events` table.
struct EventIngestBenchmark {
    let parameters: ConnectionParameters
    /// Events sent through the service.
    let events: Int
    /// Events a request carries.
    let perRequest: Int
    let threads: Int
    let logger: Logger

    /// The columns the event writer sends (`EventCopyData.columns`: every field of an event, the workspace and the
    /// time received), the attribution's country and OS last.
    static let columns =
        "workspace_id, received_at, app_id, kind, name, occurred_at, value_minor, currency, idempotency_key, visitor_id, "
        + "click_token_hash, url, attribution, link_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content, target, "
        + "variant, unattributed_reason, country, os"

    /// Event `index` of the mix: 70 % named events of 20,000 visitors (a third purchases with a value), 20 % opens with
    /// a URL, 10 % installs with a click token: as JSON for the API, and as the row the writer stores.
    static func event(_ index: Int, run: String, workspace: String, now: Date) -> (json: String, row: [String?]) {
        let key = "\(run)-\(index)"
        let visitor = "visitor-\(index * 7919 % 20_000)"
        let time = now.addingTimeInterval(-Double(index % 3600))
        let stamp = time.postgresText
        let received = now.postgresText
        switch index % 10 {
        case 0:
            let token = String(format: "%032x", index)
            return (
                #"{"name":"install","idempotencyKey":"\#(key)","visitorId":"\#(visitor)","clickToken":"\#(token)","time":"\#(Self.iso.string(from: time))"}"#,
                [
                    workspace, received, nil, "install", "install", stamp, nil, nil, key, visitor, SHA256.hex(token),
                    nil, "none", nil, nil, nil, nil, nil, nil, nil, nil, "unknown_click_token",
                ]
            )
        case 1, 2:
            let url = "https://go.bench.example/spring/\(index % 500)?utm_source=mail"
            return (
                #"{"name":"open","idempotencyKey":"\#(key)","visitorId":"\#(visitor)","url":"\#(url)","time":"\#(Self.iso.string(from: time))"}"#,
                [
                    workspace, received, nil, "open", "open", stamp, nil, nil, key, visitor, nil, url, "none", nil, nil, nil, nil,
                    nil, nil, nil, nil, "not_a_link",
                ]
            )
        default:
            let purchase = index % 3 == 0
            let value = purchase ? #","value":\#(index % 10_000),"currency":"EUR""# : ""
            return (
                #"{"name":"\#(purchase ? "purchase" : "signup")","idempotencyKey":"\#(key)","visitorId":"\#(visitor)","time":"\#(Self.iso.string(from: time))"\#(value)}"#,
                [
                    workspace, received, nil, "named", purchase ? "purchase" : "signup", stamp, purchase ? "\(index % 10_000)" : nil,
                    purchase ? "EUR" : nil, key, visitor, nil, nil, "none", nil, nil, nil, nil, nil, nil, nil, nil,
                    "no_click_in_window",
                ]
            )
        }
    }

    /// RFC 3339 times for the JSON, made once (used by one thread, before the clocks start).
    nonisolated(unsafe) static let iso = ISO8601DateFormatter()

    struct Result {
        var copyRowsPerSecond: Double
        var pipelineEventsPerSecond: Double
        var pipelineSeconds: Double
        var stored: Int
    }

    func run() throws -> Result {
        var configuration = ServiceConfiguration(
            server: {
                var server = ServerConfiguration()
                server.port = 0
                return server
            }(), database: parameters, databasePoolSize: 4, migrateOnStart: false)
        configuration.checkInterval = 0
        let application = try Application(configuration: configuration, logger: logger)
        try application.start()
        defer { application.shutdown() }
        let key = try Workspace.createKey(pool: application.pool, workspace: "bench", scope: .write)
        let workspace = try application.pool.withConnection {
            try $0.query("SELECT id::text FROM workspaces WHERE name = 'bench'").first!.decode(0, as: String.self)
        }
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) // whole seconds, as the JSON sends them

        // Raw COPY of the same rows, prepared before the clock starts, 5,000 a COPY.
        let rows = (0..<events).map { Self.event($0, run: "copy", workspace: workspace, now: now).row + [nil, nil] }
        let copyStart = ContinuousClock.now
        try application.pool.withConnection { connection in
            for start in stride(from: 0, to: rows.count, by: 5_000) {
                _ = try connection.copyFrom(
                    Query(unsafeSQL: "COPY events (\(Self.columns)) FROM STDIN"), rows: rows[start..<min(start + 5_000, rows.count)])
            }
        }
        let copySeconds = (ContinuousClock.now - copyStart).seconds
        try application.pool.withConnection { try $0.executeScript("TRUNCATE events") }

        // The same events through the service, the request bodies prepared before the clock starts.
        let bodies: [[UInt8]] = stride(from: 0, to: events, by: perRequest).map { start in
            let items = (start..<min(start + perRequest, events)).map { Self.event($0, run: "api", workspace: workspace, now: now).json }
            return Array(#"{"events":[\#(items.joined(separator: ","))]}"#.utf8)
        }
        let next = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        for _ in 0..<threads {
            Thread {
                defer { done.signal() }
                guard let client = try? HTTPTestClient(port: application.port) else {
                    failures.add(1, ordering: .relaxed)
                    return
                }
                defer { client.close() }
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < bodies.count else { return }
                    let response = try? client.request(
                        "POST", "/v1/events",
                        headers: [("Host", "127.0.0.1"), ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json")],
                        body: bodies[index])
                    if response?.status != 202 { failures.add(1, ordering: .relaxed) }
                }
            }.start()
        }
        for _ in 0..<threads { done.wait() }
        // Until the writer has committed every event (its counter moves after each commit): asked every 10 ms without
        // a query, so the wait adds no work to PostgreSQL's; the table's count checked once afterwards.
        let deadline = ContinuousClock.now + .seconds(600)
        while ContinuousClock.now < deadline, application.eventCounters.written < events { usleep(10_000) }
        let seconds = (ContinuousClock.now - start).seconds
        let stored = try application.pool.withConnection {
            try $0.query("SELECT count(*)::int8 FROM events").first!.decode(0, as: Int.self)
        }
        if failures.load(ordering: .relaxed) > 0 { say("  \(failures.load(ordering: .relaxed)) requests failed") }
        try application.pool.withConnection { try $0.executeScript("TRUNCATE events") }
        return Result(
            copyRowsPerSecond: Double(events) / copySeconds, pipelineEventsPerSecond: Double(stored) / seconds,
            pipelineSeconds: seconds, stored: stored)
    }
}
