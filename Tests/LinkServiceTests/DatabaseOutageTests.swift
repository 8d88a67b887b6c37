import EmbeddedPostgres
import Foundation
import Glibc
import LinkKit
@testable import LinkService
import Postgres
import Synchronization
import Testing
import TestSupport

/// A service on a PostgreSQL cluster of its own, so the tests can restart or freeze it (the shared test cluster
/// serves the suites running beside them).
final class OutageCluster: @unchecked Sendable {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-outage-\(UUID().uuidString.prefix(8))")
    let cluster: EmbeddedCluster
    let parameters: ConnectionParameters

    init() throws {
        cluster = EmbeddedCluster(dataDirectory: directory, logger: .quiet, durable: false)
        try cluster.start()
        parameters = try ConnectionParameters(cluster.connectionString)
    }

    func close() {
        resume()
        cluster.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The postmaster and every backend it forked: the processes of this test's own cluster.
    func serverProcesses() -> [pid_t] {
        guard let text = try? String(contentsOf: cluster.pgdata.appendingPathComponent("postmaster.pid"), encoding: .utf8),
            let line = text.split(separator: "\n").first, let postmaster = pid_t(line)
        else { return [] }
        var pids = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // "pid (comm) state ppid ...": the parent is the second field after the command.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == postmaster { pids.append(pid) }
        }
        return pids
    }

    private let stopped = Mutex<[pid_t]>([])

    /// SIGSTOPs the whole cluster: connections stay open and nothing answers (a stalled database).
    func freeze() {
        let pids = serverProcesses()
        stopped.withLock { $0 = pids }
        for pid in pids { kill(pid, SIGSTOP) }
    }

    /// SIGCONTs what `freeze()` stopped. Idempotent.
    func resume() {
        let pids = stopped.withLock { pids in
            defer { pids = [] }
            return pids
        }
        for pid in pids { kill(pid, SIGCONT) }
    }
}

/// Clients hammering one node over keep-alive connections until told to stop: authenticated resolves, clicks and
/// association-file fetches, each resolve and click on a path of its own, so its hit can be found exactly once.
final class TrafficLoad: @unchecked Sendable {
    struct Tally: Sendable {
        var acknowledged: [String] = []
        var failures: [String] = []
        var requests = 0
    }

    private let stopping = Atomic<Bool>(false)
    private let sent = Atomic<Int>(0)
    private let tally = Mutex(Tally())
    private let finished = DispatchSemaphore(value: 0)
    private let clients: Int

    init(port: Int, host: String, key: String) {
        let kinds = ["resolve", "click"]
        clients = kinds.count
        for kind in kinds {
            let thread = Thread { [self] in
                defer { finished.signal() }
                var local = Tally()
                var connection = try? HTTPTestClient(port: port, timeout: 10)
                var index = 0
                while !stopping.load(ordering: .relaxed) {
                    index += 1
                    let path = "/\(kind)/\(index)"
                    let (target, headers, expected): (String, [(String, String)], Int)
                    if kind == "resolve" {
                        let url = "https://\(host)\(path)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                        (target, headers, expected) = ("/v1/resolve?url=\(url)", [("Authorization", "Bearer \(key)")], 200)
                    } else if index.isMultiple(of: 10) {
                        (target, headers, expected) = ("/.well-known/apple-app-site-association", [("Host", host)], 200)
                    } else {
                        (target, headers, expected) = (path, [("Host", host), ("User-Agent", "curl/8")], 302)
                    }
                    local.requests += 1
                    sent.add(1, ordering: .relaxed)
                    do {
                        if connection == nil { connection = try HTTPTestClient(port: port, timeout: 10) }
                        let response = try connection!.request("GET", target, headers: headers)
                        if response.status == expected {
                            if !target.hasPrefix("/.well-known/") { local.acknowledged.append(path) }
                        } else {
                            local.failures.append("\(kind) \(path): \(response.status) \(response.text.prefix(200))")
                        }
                    } catch {
                        local.failures.append("\(kind) \(path): \(error)")
                        connection = nil
                    }
                }
                let done = local
                tally.withLock { tally in
                    tally.acknowledged += done.acknowledged
                    tally.failures += done.failures
                    tally.requests += done.requests
                }
            }
            thread.start()
        }
    }

    /// Whether the clients send `count` more requests (within the shared patience): a phase of a test lasts that
    /// long, however slow the machine.
    func send(_ count: Int) -> Bool {
        let mark = sent.load(ordering: .relaxed)
        return eventually { sent.load(ordering: .relaxed) >= mark + count }
    }

    /// Stops the clients and returns what they saw.
    func finish() -> Tally {
        stopping.store(true, ordering: .relaxed)
        for _ in 0..<clients { finished.wait() }
        return tally.withLock { $0 }
    }
}

@Suite("Answering through database outages", .serialized)
struct DatabaseOutageTests {
    /// Runs `body` with a service and its fixture on a cluster of its own, both stopped after it, even when it throws.
    func withOutage(
        configure: (inout ServiceConfiguration) -> Void = { _ in },
        _ body: (OutageCluster, TestService, Fixture) throws -> Void
    ) throws {
        let database = try OutageCluster()
        defer { database.close() }
        let service = try TestService(parameters: database.parameters, configure: configure)
        defer { service.close() }
        try body(database, service, try Fixture(service))
    }

    func resolve(_ service: TestService, key: String, _ url: String = "https://links.example.com/widget/1") throws -> TestResponse {
        try service.request("GET", "/v1/resolve?url=" + url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!, key: key)
    }

    /// Issue 17: during a 6 s restart every authenticated resolve answered 503, although resolve needs nothing
    /// from the database. Now resolve, clicks and the association files answer throughout, every answered
    /// resolve and click has its hit in the database exactly once, and writes (and keys never seen before)
    /// answer 503 with `Retry-After`.
    @Test(.timeLimit(.minutes(3)))
    func resolveAndClicksAnswerThroughARestartAndEveryAnswerHasItsHitOnce() throws {
        try withOutage { database, service, fixture in
            let unseenKey = try service.key()
            try Fixture.expect(200, resolve(service, key: fixture.key))

            let load = TrafficLoad(port: service.port, host: fixture.host, key: fixture.key)
            #expect(load.send(200), "traffic before the stop")
            database.cluster.stop()
            #expect(load.send(200), "traffic while the database is down")
            let write = try service.request("POST", "/v1/teams", key: fixture.key, json: #"{"teamId":"QWERT12345","name":"Down"}"#)
            #expect(write.status == 503, "\(write.text)")
            #expect(write.headers["Content-Type"] == "application/problem+json")
            #expect(write.headers["Retry-After"] != nil)
            let unseen = try resolve(service, key: unseenKey)
            #expect(unseen.status == 503, "a key never verified cannot be checked while the database is down: \(unseen.text)")
            #expect(unseen.headers["Retry-After"] != nil)
            #expect(load.send(200), "traffic while the database is down")
            try database.cluster.start()
            #expect(eventually { serviceIsListening(service) })
            #expect(load.send(200), "traffic once it is back")
            let tally = load.finish()

            #expect(
                tally.failures.count == 0,
                "\(tally.failures.count) of \(tally.requests) requests failed, first: \(tally.failures.prefix(3))")
            #expect(tally.acknowledged.count > 100)
            #expect(
                eventually {
                    let counters = service.application.hits.counters
                    return counters.queued == 0 && counters.spooled == 0 && counters.written == counters.accepted
                })
            #expect(service.application.hits.counters.dropped == 0)
            let stored = try Connection(database.parameters).query(
                """
                SELECT path, count(*)::int8 FROM hits WHERE hostname = \(fixture.host) AND (path LIKE '/resolve/%' OR path LIKE '/click/%') GROUP BY path
                """
            ).map { try $0.decode((String, Int).self) }
            let counts = Dictionary(uniqueKeysWithValues: stored)
            let twice = counts.filter { $0.value > 1 }
            let missing = tally.acknowledged.filter { counts[$0] == nil }
            #expect(twice.isEmpty, "stored more than once: \(twice.keys.sorted().prefix(5))")
            #expect(missing.isEmpty, "\(missing.count) answered hits are not stored, e.g. \(missing.prefix(5))")
            #expect(counts.count == tally.acknowledged.count, "stored \(counts.count), answered \(tally.acknowledged.count)")
            print(
                "outage figures: \(tally.requests) requests, \(tally.acknowledged.count) hits answered, \(counts.count) stored, 0 failures expected, \(tally.failures.count) seen"
            )

            // Writes work again once the pool has replaced its broken connections.
            #expect(
                try eventually {
                    try service.request("POST", "/v1/teams", key: fixture.key, json: #"{"teamId":"QWERT12345","name":"Up"}"#).status == 201
                })
            try Fixture.expect(200, resolve(service, key: unseenKey))
        }
    }

    /// Stored links through an outage (docs/FAULTS.md): a link the node keeps keeps serving; one it does not keep
    /// answers as the domain's rules do (a desktop click: the domain's web fallback, not the link's), is not kept
    /// so, and serves again once the database is back.
    @Test(.timeLimit(.minutes(2)))
    func keptLinksServeThroughAnOutageAndOthersGetTheDomainsFallback() throws {
        try withOutage { database, service, fixture in
            for slug in ["kept", "unread"] {
                try fixture.createLink(
                    """
                    {"domain":"\(fixture.host)","slug":"\(slug)","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":42}},
                     "fallbacks":{"desktop":"https://www.example.com/from-\(slug)"}}
                    """)
            }
            func click(_ slug: String) throws -> TestResponse {
                try service.request("GET", "/\(slug)", headers: [("Host", fixture.host), ("User-Agent", ClickTests.desktop)])
            }
            func link(_ slug: String) throws -> JSONValue? {
                try Fixture.expect(200, resolve(service, key: fixture.key, "https://\(fixture.host)/\(slug)")).json["link"]
            }
            #expect(try click("kept").headers["Location"] == "https://www.example.com/from-kept")
            #expect(try link("kept")?["slug"]?.stringValue == "kept")

            database.cluster.stop()
            #expect(try click("kept").headers["Location"] == "https://www.example.com/from-kept")
            #expect(try link("kept")?["slug"]?.stringValue == "kept")
            let unread = try click("unread")
            #expect(unread.status == 302)
            #expect(unread.headers["Location"] == "https://www.example.com/unread", "the domain's web fallback, with the path")
            #expect(try link("unread") == nil)

            try database.cluster.start()
            #expect(try eventually { try click("unread").headers["Location"] == "https://www.example.com/from-unread" })
            #expect(try link("unread")?["slug"]?.stringValue == "unread")
        }
    }

    /// Issue 53: a link the node holds in its `LinkIndex` (created in bulk, never clicked, so never read one by one)
    /// is answered from memory: it serves as itself while the database is down, where before it was read from the
    /// database at its first click (and so answered as the domain's rules do during an outage).
    @Test(.timeLimit(.minutes(2)))
    func linksHeldInTheIndexServeThroughAnOutageWithoutEverBeingRead() throws {
        try withOutage { database, service, fixture in
            let body = (0..<3).map { index in
                """
                {"domain":"\(fixture.host)","slug":"held\(index)","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":\(index + 1)}},
                 "fallbacks":{"desktop":"https://www.example.com/from-held\(index)"}}
                """.replacingOccurrences(of: "\n", with: "")
            }.joined(separator: "\n")
            try Fixture.expect(
                200,
                service.request(
                    "POST", "/v1/links/bulk?acknowledgeMoves=true", key: fixture.key,
                    body: body, headers: [("Content-Type", "application/x-ndjson")]))
            let index = service.application.linkIndex
            #expect(eventually { index.isCurrent && index.held.links == 3 })

            database.cluster.stop()
            let click = try service.request("GET", "/held1", headers: [("Host", fixture.host), ("User-Agent", ClickTests.desktop)])
            #expect(click.headers["Location"] == "https://www.example.com/from-held1", "the link's own fallback, from memory")
            let link = try Fixture.expect(200, resolve(service, key: fixture.key, "https://\(fixture.host)/held2")).json["link"]
            #expect(link?["slug"]?.stringValue == "held2")
            try database.cluster.start()
        }
    }

    /// A revocation whose notification this node never heard (its change feed was away) is found when the feed
    /// comes back: the cached keys are read again before the cache is trusted.
    @Test(.timeLimit(.minutes(2)))
    func aKeyRevokedWhileTheChangeFeedWasAwayIsRefusedOnceItIsBack() throws {
        try withOutage { database, service, fixture in
            let other = try service.key(scope: .read)
            try Fixture.expect(200, resolve(service, key: other))
            try Fixture.expect(200, resolve(service, key: fixture.key))
            let id = try #require(APIKeySecret(authorization: "Bearer \(other)")?.keyID)

            // Revoke behind the node's back (no NOTIFY) in the transaction that cuts its LISTEN connection.
            let admin = try Connection(database.parameters)
            try admin.executeScript("BEGIN")
            try admin.execute("UPDATE api_keys SET revoked_at = now() WHERE id = \(id)")
            let cut = try admin.query(
                """
                SELECT count(pg_terminate_backend(pid))::int8 FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()
                """
            ).first!.decode(0, as: Int.self)
            try admin.executeScript("COMMIT")
            #expect(cut == 1)
            #expect(try eventually { try resolve(service, key: other).status == 401 }, "the revoked key still authenticates")
            try Fixture.expect(200, resolve(service, key: fixture.key))
        }
    }

    /// Issue 17: `/readyz` hung past 3 s while the database was stopped with SIGSTOP. It now answers at once from
    /// its probe's last check, says the database is not answering within two seconds, and so while the stall lasts;
    /// resolve and clicks, which need nothing from the database, keep answering.
    @Test(.timeLimit(.minutes(2)))
    func readinessAnswersWithinASecondWhileTheDatabaseIsFrozen() throws {
        try withOutage { database, service, fixture in
            try Fixture.expect(200, resolve(service, key: fixture.key))
            try Fixture.expect(200, service.request("GET", "/readyz"))

            database.freeze()
            defer { database.resume() }
            let frozen = Date()
            var first: TestResponse?
            var slowest = 0.0
            while first == nil, Date().timeIntervalSince(frozen) < 5 {
                let asked = Date()
                let answer = try HTTPTestClient.request(port: service.port, path: "/readyz", timeout: 5)
                slowest = max(slowest, Date().timeIntervalSince(asked))
                if answer.status == 503 { first = answer } else { usleep(20_000) }
            }
            let firstSeconds = Date().timeIntervalSince(frozen)
            let stalled = try #require(first, "/readyz still ready 5 s into the freeze")
            #expect(stalled.headers["Content-Type"] == "application/problem+json")
            #expect(try stalled.json["database"] == .string("not-answering"), "\(stalled.text)")
            #expect(firstSeconds < 2.0, "took \(firstSeconds) s")
            #expect(slowest < 0.5, "/readyz answers from the probe's last check, at once")
            var started = Date()
            let second = try HTTPTestClient.request(port: service.port, path: "/readyz", timeout: 5)
            #expect(second.status == 503)
            #expect(Date().timeIntervalSince(started) < 0.5, "a stall already seen is reported at once")
            try Fixture.expect(200, resolve(service, key: fixture.key))
            try Fixture.expect(302, service.request("GET", "/frozen", headers: [("Host", fixture.host)]))
            // A new connection gives up after connect_timeout instead of waiting for good.
            started = Date()
            #expect(throws: PostgresError.self) { _ = try Connection(database.parameters) }
            let connectSeconds = Date().timeIntervalSince(started)
            #expect(connectSeconds < Double(ConnectionParameters.defaultConnectTimeout) + 3, "took \(connectSeconds) s")

            database.resume()
            #expect(try eventually { try service.request("GET", "/readyz").status == 200 })
            print(
                "readiness figures: first /readyz while frozen answered in \(String(format: "%.2f", firstSeconds)) s, a new connection gave up after \(String(format: "%.2f", connectSeconds)) s"
            )
        }
    }
    /// Issue 27: with the database frozen, six requests with well-formed unknown keys held both HTTP workers
    /// waiting on it, and `/healthz`, the association file and clicks got no answer until it came back. Now no
    /// request thread waits on the database for long, and never more of them than leaves a worker free: what is
    /// served from memory answers within a second throughout, and the unknown keys get 503 with `Retry-After`.
    @Test(.timeLimit(.minutes(2)))
    func servingAnswersWithinASecondWhileUnknownKeysMeetAFrozenDatabase() throws {
        try withOutage { database, service, fixture in
            try Fixture.expect(200, resolve(service, key: fixture.key))
            let port = service.port

            database.freeze()
            defer { database.resume() }
            let stopping = Atomic<Bool>(false)
            let unknownAnswers = Mutex<[Result<TestResponse, any Error>]>([])
            let clients = DispatchGroup()
            for _ in 0..<6 {
                Thread.detachNewThread {
                    clients.enter()
                    defer { clients.leave() }
                    while !stopping.load(ordering: .relaxed) {
                        let id = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
                        let key = "lk_\(id)_" + String(repeating: "A", count: 43)
                        // The server bounds the wait for a connection and then for the statement, each by
                        // `databaseRequestTimeout` (2 s): the client allows both and a busy machine's scheduling.
                        let answer = Result {
                            try HTTPTestClient.request(
                                port: port, path: "/v1/domains", headers: [("Authorization", "Bearer \(key)")],
                                timeout: 10)
                        }
                        unknownAnswers.withLock { $0.append(answer) }
                    }
                }
            }
            // A head start for the clients, not a wait for a condition: they keep asking throughout the probing below.
            usleep(300_000)
            var probes: [(path: String, status: Int, seconds: Double)] = []
            let probing = Date()
            while Date().timeIntervalSince(probing) < 4 {
                for (path, host, key) in [
                    ("/healthz", "localhost", nil), ("/.well-known/apple-app-site-association", fixture.host, nil),
                    ("/stalled-click", fixture.host, nil),
                    ("/v1/resolve?url=https%3A%2F%2Flinks.example.com%2Fwidget%2F1", "localhost", fixture.key),
                ] {
                    var headers = [("Host", host)]
                    if let key { headers.append(("Authorization", "Bearer \(key)")) }
                    let started = Date()
                    let status = (try? HTTPTestClient.request(port: port, path: path, headers: headers, timeout: 2))?.status ?? 0
                    probes.append((path, status, Date().timeIntervalSince(started)))
                }
                usleep(50_000) // the probes' pace over the stall, part of what is measured
            }
            stopping.store(true, ordering: .relaxed)
            let answers = unknownAnswers.withLock { $0 }
            database.resume()
            _ = clients.wait(timeout: .now() + 10)

            let answered = probes.filter { $0.status != 0 && $0.seconds < 1 }
            let slowest = probes.map(\.seconds).max() ?? 0
            print(
                "stall figures: \(answered.count) of \(probes.count) probes answered within 1 s (slowest \(String(format: "%.2f", slowest)) s); "
                    + "\(answers.compactMap { try? $0.get() }.count) of \(answers.count) unknown-key requests answered")
            #expect(probes.count > 20)
            #expect(
                answered.count == probes.count, "not answered within 1 s: \(probes.filter { $0.status == 0 || $0.seconds >= 1 }.prefix(5))")
            #expect(probes.allSatisfy { $0.status == 0 || $0.status == ($0.path == "/stalled-click" ? 302 : 200) }, "\(probes.prefix(8))")
            #expect(answers.count > 10)
            let failures = answers.compactMap { if case .failure(let error) = $0 { "\(error)" } else { nil } }
            #expect(failures.isEmpty, "every unknown key is answered: \(failures.prefix(3))")
            let statuses = answers.compactMap { try? $0.get() }.map { "\($0.status) \($0.headers["Retry-After"] ?? "-")" }
            #expect(statuses.allSatisfy { $0.hasPrefix("503 ") && !$0.hasSuffix(" -") }, "\(Set(statuses))")
            #expect(try eventually { try resolve(service, key: service.key()).status == 200 }, "new keys verify once it is back")
        }
    }
    /// Issue 45, item 8: with the database frozen, `/readyz` and an API read held both HTTP workers waiting on it,
    /// and `/healthz`, the association file and a kept link's click each waited behind them (up to 2 s). Now no
    /// worker waits on the database: requests that would are handed off (`Handoff`) and `/readyz` answers from its
    /// probe's last check, so what is served from memory answers at once while two API reads and `/readyz` keep
    /// meeting the frozen database.
    @Test(.timeLimit(.minutes(2)))
    func answersFromMemoryNeverQueueBehindRequestsWaitingOnAFrozenDatabase() throws {
        try withOutage { database, service, fixture in
            try fixture.createLink(
                """
                {"domain":"\(fixture.host)","slug":"kept","app":"\(fixture.iosApp)","destination":{"type":"widgetDetail","params":{"id":42}},
                 "fallbacks":{"desktop":"https://www.example.com/from-kept"}}
                """)
            let port = service.port
            let click = [("Host", fixture.host), ("User-Agent", ClickTests.desktop)]
            let resolvePath =
                "/v1/resolve?url=" + "https://\(fixture.host)/kept".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let probes: [(path: String, headers: [(String, String)], status: Int)] = [
                ("/healthz", [("Host", "localhost")], 200),
                ("/.well-known/apple-app-site-association", [("Host", fixture.host)], 200),
                ("/kept", click, 302),
                (resolvePath, [("Host", "localhost"), ("Authorization", "Bearer \(fixture.key)")], 200),
            ]
            for probe in probes { // kept: the link, the resolve answer, the key
                try Fixture.expect(probe.status, HTTPTestClient.request(port: port, path: probe.path, headers: probe.headers))
            }

            // Two API reads and /readyz, each on its own client, meet the database the whole time.
            let stopping = Atomic<Bool>(false)
            let waiting = DispatchGroup()
            for path in ["/v1/domains", "/v1/links", "/readyz"] {
                Thread.detachNewThread {
                    waiting.enter()
                    defer { waiting.leave() }
                    while !stopping.load(ordering: .relaxed) {
                        _ = try? HTTPTestClient.request(
                            port: port, path: path, headers: [("Authorization", "Bearer \(fixture.key)")], timeout: 5)
                    }
                }
            }
            defer {
                stopping.store(true, ordering: .relaxed)
                database.resume()
                _ = waiting.wait(timeout: .now() + 10)
            }
            #expect(eventually { service.application.requestPool.statistics.inUse > 0 }, "the API reads borrow")
            database.freeze()
            var answers: [(path: String, status: Int, seconds: Double)] = []
            let frozen = Date()
            while Date().timeIntervalSince(frozen) < 4 {
                for probe in probes {
                    let started = Date()
                    let status =
                        (try? HTTPTestClient.request(port: port, path: probe.path, headers: probe.headers, timeout: 3))?.status ?? 0
                    answers.append((probe.path, status, Date().timeIntervalSince(started)))
                }
            }
            let slowest = answers.max { $0.seconds < $1.seconds }
            print(
                "freeze figures: \(answers.count) answers from memory, slowest \(String(format: "%.3f", slowest?.seconds ?? 0)) s (\(slowest?.path ?? ""))"
            )
            #expect(answers.count > 20)
            #expect(answers.allSatisfy { $0.seconds < 0.5 }, "waited: \(answers.filter { $0.seconds >= 0.5 }.prefix(5))")
            for probe in probes {
                #expect(
                    answers.allSatisfy { $0.path != probe.path || $0.status == probe.status },
                    "\(probe.path): \(answers.filter { $0.path == probe.path }.map(\.status).prefix(8))")
            }
        }
    }

    /// Issue 27: with the spool directory unwritable during an outage, a stop loses the hits held in memory, and
    /// only the critical line logged at the stop said so. Now `/readyz` and `/metrics` say so as soon as the spool
    /// cannot be written, and stop saying so once it can.
    @Test(.timeLimit(.minutes(2)))
    func anUnwritableSpoolDuringAnOutageShowsInReadinessAndMetrics() throws {
        let spool = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-spool-\(UUID().uuidString.prefix(8))")
        let moved = spool.appendingPathExtension("moved")
        defer {
            try? FileManager.default.removeItem(at: spool)
            try? FileManager.default.removeItem(at: moved)
        }
        try withOutage(configure: { $0.hits.spoolDirectory = spool }) { database, service, fixture in
            #expect(try service.request("GET", "/readyz").json["spool"] == .string("ok"))

            database.cluster.stop()
            // The spool directory replaced by a file: nothing can be created in it, not even by root.
            try FileManager.default.moveItem(at: spool, to: moved)
            #expect(FileManager.default.createFile(atPath: spool.path, contents: Data()))
            try Fixture.expect(302, service.request("GET", "/unwritable", headers: [("Host", fixture.host)]))
            // `/readyz` answers from its probe's last check: the database's absence shows once a check has run.
            #expect(
                eventually {
                    guard let readiness = try? service.request("GET", "/readyz") else { return false }
                    return readiness.status == 503 && (try? readiness.json["spool"]) == .string("unwritable")
                })
            let readiness = try service.request("GET", "/readyz")
            #expect(readiness.status == 503)
            #expect(readiness.text.contains("lost if linkd stops"), "\(readiness.text)")
            #expect(try service.request("GET", "/metrics").text.contains("linkd_hits_spool_writable 0"))

            try FileManager.default.removeItem(at: spool)
            try FileManager.default.moveItem(at: moved, to: spool)
            try database.cluster.start()
            #expect(
                eventually {
                    _ = try? service.request("GET", "/writable-again", headers: [("Host", fixture.host)])
                    return (try? service.request("GET", "/readyz").json["spool"]) == .string("ok")
                })
            #expect(try service.request("GET", "/metrics").text.contains("linkd_hits_spool_writable 1"))
        }
    }
}

/// Whether the service's change feed is connected (through the catalog freshness `/readyz` reports).
func serviceIsListening(_ service: TestService) -> Bool {
    (try? service.request("GET", "/readyz").json["catalog"]?["state"]) == .string("current")
}
