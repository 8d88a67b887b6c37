// MARK: - Conversions reported to linkd (the same in every generated file; docs/CODEGEN.md and docs/EVENTS.md in linkd)

/// The app's events for linkd's attribution (`POST /v1/events` with the app's publishable key): the install and the
/// opens by a link, which `LinkInbox` and `LinkDeferredClaim` report when made with it, and the app's own named events
/// (`track("purchase", value: .init(1299, currency: "EUR"))`).
///
/// Every event is written to a queue file in `directory` (atomically, before `track` returns) and sent from there in
/// batches: the queue survives the process ending and any time offline, and each event keeps the idempotency key it
/// was given when tracked, so a batch sent again after a lost answer counts once. A failed send is tried again after
/// 1, 2, 4 … seconds (at most five minutes, with jitter), or after the `Retry-After` of a 429. The install is held
/// (and everything after it, so a purchase finds the install it follows) until the install's click token is known
/// (`reportInstall(clickToken:)`, which the deferred claim calls) or `installWait` has passed since the first launch.
///
/// Thread-safe: it is `@unchecked Sendable` because `lock` guards its only stored `var`, `state`, in every method, and
/// the queue file is written under it.
public final class LinkEvents: @unchecked Sendable {
    /// An amount of money: minor units (cents; zero or more) and the ISO 4217 code in capitals.
    public struct Value: Hashable, Sendable {
        public let minorUnits: Int
        public let currency: String
        public init(_ minorUnits: Int, currency: String) {
            self.minorUnits = minorUnits
            self.currency = currency
        }
    }

    /// The base URL of linkd's API, under which `v1/events` is.
    public let server: URL
    /// The app's publishable key (`lkp_…`), sent as `X-Linkd-App-Key`: it can only send events for its app.
    public let appKey: String
    /// The queue file, `linkd-events` in the directory given.
    public let file: URL
    public let session: URLSession
    /// How long the install waits for its click token after the first launch before it is sent without one.
    public let installWait: TimeInterval
    /// Most events a request carries.
    public let batchSize: Int
    /// Most events the queue keeps: `track` refuses more while linkd cannot be reached.
    public static let capacity = 10_000

    private let lock = NSLock()
    private var state: State

    /// - Parameters:
    ///   - server: linkd's base URL.
    ///   - appKey: the app's publishable key (`POST /v1/apps/{id}/event-key`).
    ///   - directory: where the queue file is kept (Application Support, say); made if missing.
    public init(
        server: URL, appKey: String, directory: URL, session: URLSession = .shared, installWait: TimeInterval = 30,
        batchSize: Int = 100
    ) {
        self.server = server
        self.appKey = appKey
        file = directory.appendingPathComponent("linkd-events")
        self.session = session
        self.installWait = installWait
        self.batchSize = max(1, min(batchSize, 1000))
        let text = (try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        if let read = State(text) {
            state = read
        } else {
            // The first launch of this install (or its data was cleared): a new visitor, and the install to report.
            state = State(visitorID: UUID().uuidString.lowercased(), installSince: Date())
            save(state)
        }
        if !state.queue.isEmpty || state.installSince != nil, state.begin() { start() }
    }

    /// The id linkd attributes this install's named events through (`visitorId`): made at the first launch, kept.
    public var visitorID: String { locked { $0.visitorID } }

    /// How many events wait to be sent (the install held for its token not counted).
    public var pending: Int { locked { $0.queue.count } }

    /// Tracks a named event (`signup`, `purchase`, `trial.started`: lower-case letters, digits, `_` and `.`, at most
    /// 64, starting with a letter), with an optional value, as happening at `time`. Returns false, keeping nothing,
    /// for a malformed name or value, or a full queue.
    @discardableResult
    public func track(_ name: String, value: Value? = nil, at time: Date = Date()) -> Bool {
        guard Self.isEventName(name), !["install", "open"].contains(name) else { return false }
        var fields = [("name", LinkRouter.JSON.quoted(name))]
        if let value {
            guard value.minorUnits >= 0, value.currency.utf8.count == 3, value.currency.utf8.allSatisfy({ (0x41...0x5A).contains($0) })
            else { return false }
            fields += [("value", String(value.minorUnits)), ("currency", LinkRouter.JSON.quoted(value.currency))]
        }
        return enqueue(fields, time: time)
    }

    /// Reports that the app was opened with `url` (`LinkInbox` does, for every link it takes); a URL longer than linkd
    /// keeps (2,000 characters) is not reported.
    public func reportOpen(url: String) {
        guard url.unicodeScalars.count <= 2000 else { return }
        _ = enqueue([("name", "\"open\""), ("url", LinkRouter.JSON.quoted(url))], time: Date())
    }

    /// Reports the install, once per install, with the click token it came with (the deferred claim's; nil for none):
    /// releases the install held since the first launch. Later calls do nothing.
    public func reportInstall(clickToken: String?) {
        let token = clickToken.flatMap { LinkDeferredClaim.isToken($0[...]) ? $0 : nil }
        let starts = locked { state -> Bool in
            guard let since = state.installSince else { return false }
            state.queue.insert(state.installLine(since: since, clickToken: token), at: 0)
            state.installSince = nil
            state.retryAt = nil
            save(state)
            return state.begin()
        }
        if starts { start() }
    }

    /// Sends what is queued now, without waiting for a retry's time: true once nothing is left, false when a try
    /// failed (offline, an error) or the install still waits for its token (the queue stays for later).
    public func flush() async -> Bool {
        let (failures, starts) = locked { state -> (Int, Bool) in
            state.retryAt = nil
            return (state.failures, state.begin())
        }
        if starts { start() }
        while true {
            let (done, failed) = locked { state in
                (state.queue.isEmpty && state.installSince == nil, state.failures > failures || state.installHeld(installWait))
            }
            if done { return true }
            if failed { return false }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// Lower-case letters, digits, `_` and `.`, at most 64, starting with a letter.
    static func isEventName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, (0x61...0x7A).contains(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2E }
    }

    /// Queues an event with a fresh idempotency key; false when the queue is full.
    private func enqueue(_ fields: [(String, String)], time: Date) -> Bool {
        let result = locked { state -> (kept: Bool, starts: Bool) in
            guard state.queue.count < Self.capacity else { return (false, false) }
            state.queue.append(state.line(fields, key: UUID().uuidString.lowercased(), time: time))
            save(state)
            return (true, state.begin())
        }
        if result.starts { start() }
        return result.kept
    }

    /// Starts the one sender (`begin()` said none runs).
    private func start() {
        Task.detached { [self] in await send() }
    }

    /// The sender: sends batches from the head of the queue until it is empty, waiting out the held install and the
    /// backoff between tries. Only one runs (`State.sending`).
    private func send() async {
        while true {
            let next = locked { state -> Step in state.next(installWait: installWait, batchSize: batchSize, save: save) }
            switch next {
            case .done: return
            case .wait(let until):
                // In short naps, so that `flush` or the install's token is taken soon.
                let naps = max(0, until.timeIntervalSinceNow)
                try? await Task.sleep(nanoseconds: UInt64(min(naps, 0.25) * 1_000_000_000))
            case .send(let lines):
                let outcome = await post(lines)
                locked { state in state.settle(lines.count, outcome, save: save) }
            }
        }
    }

    /// One batch to `POST /v1/events`.
    private func post(_ lines: [String]) async -> Outcome {
        var request = URLRequest(url: server.appendingPathComponent("v1/events"), timeoutInterval: 30)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(appKey, forHTTPHeaderField: "X-Linkd-App-Key")
        request.httpBody = Data(("{\"events\":[" + lines.joined(separator: ",") + "]}").utf8)
        guard let (_, response) = try? await session.data(for: request), let http = response as? HTTPURLResponse else {
            return .retry(after: nil)
        }
        switch http.statusCode {
        case 200..<300: return .sent
        case 429:
            let header = http.allHeaderFields.first { ($0.key as? String)?.lowercased() == "retry-after" }?.value as? String
            return .retry(after: header.flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) })
        // Not signed in (a replaced key, a new one on the way), a timeout, the server's trouble: later.
        case 401, 403, 408, 500...: return .retry(after: nil)
        // The batch can never be taken as it is: it is dropped rather than blocking every later event.
        default: return .dropped
        }
    }

    private func locked<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Writes `state` to the queue file at once (atomically); called holding the lock (or in `init`).
    private func save(_ state: State) {
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(state.text.utf8).write(to: file, options: .atomic)
    }

    enum Step { case done, wait(until: Date), send([String]) }
    enum Outcome { case sent, dropped, retry(after: TimeInterval?) }

    /// The queue file's content, and the sender's own state.
    private struct State {
        var visitorID: String
        /// When the install began waiting for its click token (the first launch); nil once it is queued.
        var installSince: Date?
        /// The events to send, each the JSON object `POST /v1/events` takes, oldest first.
        var queue: [String] = []
        /// Whether the sender runs, how many tries failed in a row (and in all), and when the next may be made.
        var sending = false
        var attempt = 0
        var failures = 0
        var retryAt: Date?

        init(visitorID: String, installSince: Date?) {
            self.visitorID = visitorID
            self.installSince = installSince
        }

        /// Reads the queue file: `linkd-events 1 <visitor> <install: milliseconds since 1970, or ->`, then one event a
        /// line; nil when there is none (or it is not one).
        init?(_ text: String) {
            let lines = text.split(separator: "\n").map(String.init)
            let header = lines.first?.split(separator: " ").map(String.init) ?? []
            guard header.count == 4, header[0] == "linkd-events", header[1] == "1", !header[2].isEmpty else { return nil }
            visitorID = header[2]
            installSince = Double(header[3]).map { Date(timeIntervalSince1970: $0 / 1000) }
            // A line cut short cannot be (writes are atomic), but a line that is no object is dropped all the same.
            queue = lines.dropFirst().filter { $0.hasPrefix("{") && $0.hasSuffix("}") }
        }

        var text: String {
            let since = installSince.map { String(Int64($0.timeIntervalSince1970 * 1000)) } ?? "-"
            return (["linkd-events 1 \(visitorID) \(since)"] + queue).joined(separator: "\n") + "\n"
        }

        /// Marks the sender running; true when it was not (the caller starts it).
        mutating func begin() -> Bool {
            guard !sending else { return false }
            sending = true
            return true
        }

        func installHeld(_ wait: TimeInterval) -> Bool {
            installSince.map { Date().timeIntervalSince($0) < wait } ?? false
        }

        /// What the sender does now: stops (nothing to send), waits (the held install, a backoff) or sends a batch.
        mutating func next(installWait: TimeInterval, batchSize: Int, save: (State) -> Void) -> Step {
            if let since = installSince {
                if Date().timeIntervalSince(since) < installWait { return .wait(until: since.addingTimeInterval(installWait)) }
                // No token came in time: the install is reported without one, at the time of the first launch.
                queue.insert(installLine(since: since, clickToken: nil), at: 0)
                installSince = nil
                save(self)
            }
            if queue.isEmpty {
                sending = false
                return .done
            }
            if let retryAt, retryAt > Date() { return .wait(until: retryAt) }
            return .send(Array(queue.prefix(batchSize)))
        }

        /// Takes the answer to the batch of the first `count` events.
        mutating func settle(_ count: Int, _ outcome: Outcome, save: (State) -> Void) {
            switch outcome {
            case .sent, .dropped:
                queue.removeFirst(min(count, queue.count))
                attempt = 0
                retryAt = nil
                save(self)
            case .retry(let after):
                attempt += 1
                failures += 1
                // 1, 2, 4 … seconds, at most five minutes, each between half and all of it; a 429's `Retry-After` as said.
                let backoff = min(300, pow(2, Double(attempt - 1))) * Double.random(in: 0.5...1)
                retryAt = Date().addingTimeInterval(after ?? backoff)
            }
        }

        func installLine(since: Date, clickToken: String?) -> String {
            let token = clickToken.map { [("clickToken", "\"\($0)\"")] } ?? []
            return line([("name", "\"install\"")] + token, key: visitorID + "-install", time: since)
        }

        /// One event's JSON: its fields, the idempotency key, the visitor and the time (RFC 3339, milliseconds, UTC).
        func line(_ fields: [(String, String)], key: String, time: Date) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let all = fields + [
                ("idempotencyKey", LinkRouter.JSON.quoted(key)), ("visitorId", LinkRouter.JSON.quoted(visitorID)),
                ("time", "\"" + formatter.string(from: time) + "\""),
            ]
            return "{" + all.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
    }
}
