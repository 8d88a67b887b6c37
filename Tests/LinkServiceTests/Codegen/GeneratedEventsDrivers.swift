/// The drivers `GeneratedEventsTests` compiles with each generated router file. Every driver takes its arguments on the
/// command line: the mode, linkd's base URL, the app's publishable key, the directory of the queue, and for `offline`
/// the install referrer and the link URL the app is opened with. Modes:
/// - `offline`: a first launch with linkd unreachable: the deferred claim of the referrer's token into an inbox made
///   with `LinkEvents` (the install), the inbox given the link (the open), a `signup` and a `purchase` of 1299 EUR
///   tracked; prints the visitor, what `flush` gives, the events pending, and what malformed events give (`false`);
/// - `online`: the next launch, linkd reachable: a `purchase` of 500 USD tracked; prints the visitor, `flush`, pending;
/// - `burst`: 300 `step` events (the value their number) queued behind the install, which is then reported: sent ten a
///   request; waits to be killed;
/// - `drain`: prints the visitor, `flush` and pending;
/// - `retry`: the first send answered 429 with `Retry-After: 2`; prints the visitor, the sends made once the queue is
///   empty, and whether the second came two to three seconds after the first (TypeScript: its `fetch` given, the later
///   sends reaching linkd; Swift: a `URLProtocol` of the session's, Kotlin: a server of the JDK's, answering 202 after
///   the 429);
/// - `threads`: linkd unreachable, 8 threads (TypeScript: calls made while sends are on their way, and from inside
///   them) tracking 50 `step` events each after the install; prints the events pending, the event lines of the queue file, the distinct
///   ones, and the events a new `LinkEvents` over the same file finds.
extension GeneratedEventsTests {
    static let swiftMain = #"""
        import Foundation
        #if canImport(FoundationNetworking)
        import FoundationNetworking
        #endif

        let arguments = CommandLine.arguments
        let server = URL(string: arguments[2])!
        let key = arguments[3]
        let directory = URL(fileURLWithPath: arguments[4])
        let session = URLSession(configuration: .ephemeral)

        /// The queue file's event lines (the header left out).
        func queued(_ directory: URL) -> [String] {
            let text = (try? String(contentsOf: directory.appendingPathComponent("linkd-events"), encoding: .utf8)) ?? ""
            return Array(text.split(separator: "\n").dropFirst().map(String.init))
        }

        final class Running: @unchecked Sendable {   // `condition` guards `count`
            let condition = NSCondition()
            var count: Int
            init(_ count: Int) { self.count = count }
            func finished() { condition.lock(); count -= 1; condition.signal(); condition.unlock() }
            func wait() { condition.lock(); while count > 0 { condition.wait() }; condition.unlock() }
        }

        /// A stand-in for linkd in a session (`retry`): the first send answered 429 with Retry-After: 2 (longer than the
        /// first backoff), the next ones 202.
        final class Calls: @unchecked Sendable {   // `lock` guards `times`
            let lock = NSLock()
            var times: [Date] = []
            func record() -> Int { lock.lock(); defer { lock.unlock() }; times.append(Date()); return times.count }
            var all: [Date] { lock.lock(); defer { lock.unlock() }; return times }
        }
        final class StandIn: URLProtocol {
            static let calls = Calls()
            override class func canInit(with request: URLRequest) -> Bool { true }
            override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
            override func startLoading() {
                let first = Self.calls.record() == 1
                guard let url = request.url, let response = HTTPURLResponse(
                    url: url, statusCode: first ? 429 : 202, httpVersion: "HTTP/1.1", headerFields: first ? ["Retry-After": "2"] : [:])
                else { return }
                client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
                client?.urlProtocol(self, didLoad: Data())
                client?.urlProtocolDidFinishLoading(self)
            }
            override func stopLoading() {}
        }

        switch arguments[1] {
        case "offline":
            let events = LinkEvents(server: server, appKey: key, directory: directory, session: session, installWait: 600)
            let inbox = LinkInbox(ready: true, storage: nil, events: events)
            let defaults = UserDefaults(suiteName: "linkd.events.\(getpid())")!
            let claim = LinkDeferredClaim(server: server, recordKey: "claimed", defaults: defaults, session: session)
            // Offline the claim finds nothing, but the install is reported with its token all the same.
            _ = await claim.claim(LinkDeferredClaim.token(fromReferrer: arguments[5]) ?? "", into: inbox)
            _ = inbox.receive(arguments[6])
            events.track("signup")
            events.track("purchase", value: .init(1299, currency: "EUR"))
            print(events.visitorID)
            print(await events.flush(), events.pending)
            print(events.track("Purchase"), events.track("purchase", value: .init(-1, currency: "EUR")),
                  events.track("purchase", value: .init(1, currency: "eur")), events.track("install"), events.pending)
        case "online":
            let events = LinkEvents(server: server, appKey: key, directory: directory, session: session)
            events.track("purchase", value: .init(500, currency: "USD"))
            print(events.visitorID)
            print(await events.flush(), events.pending)
        case "burst":
            // Held behind the install while tracking, so that all 300 are queued when sending starts.
            let events = LinkEvents(server: server, appKey: key, directory: directory, session: session, installWait: 600, batchSize: 10)
            for n in 0..<300 { events.track("step", value: .init(n, currency: "EUR")) }
            events.reportInstall(clickToken: nil)
            while true { try await Task.sleep(nanoseconds: 1_000_000_000) }
        case "retry":
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [StandIn.self]
            let events = LinkEvents(server: server, appKey: key, directory: directory, session: URLSession(configuration: configuration), installWait: 0)
            events.track("retried")
            let until = Date().addingTimeInterval(60)
            while events.pending > 0 && Date() < until { try await Task.sleep(nanoseconds: 20_000_000) }
            let times = StandIn.calls.all
            let gap = times.count > 1 ? times[1].timeIntervalSince(times[0]) : 0
            print(events.visitorID)
            print(times.count, gap >= 2 && gap < 3)
        case "drain":
            let events = LinkEvents(server: server, appKey: key, directory: directory, session: session, installWait: 0, batchSize: 10)
            print(events.visitorID)
            print(await events.flush(), events.pending)
        default:
            let events = LinkEvents(server: server, appKey: key, directory: directory, session: session)
            events.reportInstall(clickToken: nil)
            let running = Running(8)
            for worker in 0..<8 {
                Thread {
                    for n in 0..<50 { events.track("step", value: .init(worker * 100 + n, currency: "EUR")) }
                    running.finished()
                }.start()
            }
            running.wait()
            let lines = queued(directory)
            print(events.pending, lines.count, Set(lines).count,
                  LinkEvents(server: server, appKey: key, directory: directory, session: session).pending)
        }
        """#

    /// The TypeScript driver: the queue in a file written atomically (a new file renamed over the old one).
    static let typescriptMain = #"""
        import { LinkInbox, LinkDeferredClaim, LinkEvents, EventStorage, EventFetch } from "./links";
        declare const process: { argv: string[]; stdout: { write(text: string, done: () => void): void }; exit(code: number): void };
        interface FS {
            readFileSync(path: string, encoding: string): string;
            writeFileSync(path: string, text: string): void;
            renameSync(from: string, to: string): void;
            existsSync(path: string): boolean;
            mkdirSync(path: string, options: { recursive: boolean }): void;
        }
        declare function require(name: string): FS;
        const fs = require("fs");
        const [, , mode, server, key, directory] = process.argv;
        fs.mkdirSync(directory, { recursive: true });
        const file = directory + "/linkd-events";
        const storage: EventStorage = {
            getItem: () => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : null),
            setItem: (_key, text) => { fs.writeFileSync(file + ".new", text); fs.renameSync(file + ".new", file); },
        };
        const queued = () => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "").split("\n").slice(1).filter((line) => line.length > 0);
        async function main(): Promise<string[]> {
            const lines: string[] = [];
            if (mode === "offline") {
                const events = new LinkEvents(server, key, storage, { installWait: 600000 });
                const inbox = new LinkInbox(true, false, events);
                const record = new Map<string, string>();
                const claim = new LinkDeferredClaim(server, { getItem: (k) => record.get(k) ?? null, setItem: (k, v) => { record.set(k, v); } });
                await claim.claimInto(LinkDeferredClaim.tokenFromReferrer(process.argv[6]) ?? "", inbox);
                inbox.receiveURL(process.argv[7]);
                events.track("signup");
                events.track("purchase", { minorUnits: 1299, currency: "EUR" });
                lines.push(events.visitorId);
                lines.push((await events.flush()) + " " + events.pending);
                lines.push([events.track("Purchase"), events.track("purchase", { minorUnits: -1, currency: "EUR" }),
                    events.track("purchase", { minorUnits: 1, currency: "eur" }), events.track("install"), events.pending].join(" "));
            } else if (mode === "online") {
                const events = new LinkEvents(server, key, storage);
                events.track("purchase", { minorUnits: 500, currency: "USD" });
                lines.push(events.visitorId);
                lines.push((await events.flush()) + " " + events.pending);
            } else if (mode === "burst") {
                const events = new LinkEvents(server, key, storage, { installWait: 600000, batchSize: 10 });
                for (let n = 0; n < 300; n++) events.track("step", { minorUnits: n, currency: "EUR" });
                events.reportInstall(null);
                await new Promise<void>(() => { setInterval(() => undefined, 1000); });
            } else if (mode === "retry") {
                // linkd's answer to the first send replaced by a 429 with Retry-After: 2 (longer than the first backoff).
                const calls: number[] = [];
                const fetcher: EventFetch = async (url, init) => {
                    calls.push(Date.now());
                    if (calls.length === 1) return { status: 429, headers: { get: (name: string) => (name === "Retry-After" ? "2" : null) } };
                    return (globalThis as unknown as { fetch: EventFetch }).fetch(url, init);
                };
                const events = new LinkEvents(server, key, storage, { installWait: 0, fetcher });
                events.track("retried");
                while (events.pending > 0) await new Promise<void>((resolve) => { setTimeout(resolve, 20); });
                const gap = calls[1] - calls[0];
                lines.push(events.visitorId);
                lines.push(calls.length + " " + (gap >= 2000 && gap < 3000));
            } else if (mode === "drain") {
                const events = new LinkEvents(server, key, storage, { installWait: 0, batchSize: 10 });
                lines.push(events.visitorId);
                lines.push((await events.flush()) + " " + events.pending);
            } else {
                // One thread, but calls made while sends are on their way, and from inside a send (its fetch).
                let n = 0;
                let events: LinkEvents | null = null;
                const fetcher: EventFetch = async () => {
                    if (events) events.track("step", { minorUnits: 1000 + n++, currency: "EUR" });
                    throw new Error("offline");
                };
                events = new LinkEvents(server, key, storage, { fetcher });
                events.reportInstall(null);
                const flushes: Promise<boolean>[] = [];
                for (let i = 0; i < 400; i++) {
                    events.track("step", { minorUnits: i, currency: "EUR" });
                    if (i % 50 === 0) flushes.push(events.flush());
                }
                const flushed = await Promise.all(flushes);
                const all = queued();
                lines.push([flushed.every((ok) => !ok), events.pending === 401 + n, all.length === events.pending, new Set(all).size === all.length,
                    new LinkEvents(server, key, storage, { fetcher }).pending === all.length].join(" "));
            }
            return lines;
        }
        // Exits once written: the global fetch keeps idle connections open a while.
        main().then((lines) => process.stdout.write(lines.join("\n") + "\n", () => process.exit(0)));
        """#

    /// The Kotlin driver (the package's files imported by the test).
    static let kotlinMain = #"""
        fun main(args: Array<String>) {
            val server = args[1]
            val key = args[2]
            val directory = java.io.File(args[3])
            fun queued(): List<String> {
                val file = java.io.File(directory, "linkd-events")
                return if (file.exists()) String(file.readBytes(), Charsets.UTF_8).split('\n').drop(1).filter { it.isNotEmpty() } else emptyList()
            }
            when (args[0]) {
                "offline" -> {
                    val events = LinkEvents(server, key, directory, installWaitMillis = 600_000)
                    val inbox = LinkInbox(ready = true, events = events)
                    val claim = LinkDeferredClaim(server, object : LinkDeferredClaim.Record {
                        var done = false
                        override fun claimed() = done
                        override fun markClaimed() { done = true }
                    })
                    // Offline the claim finds nothing, but the install is reported with its token all the same.
                    claim.claim(LinkDeferredClaim.tokenFromReferrer(args[4]) ?: "", inbox)
                    inbox.receive(args[5])
                    events.track("signup")
                    events.track("purchase", LinkEvents.Value(1299, "EUR"))
                    println(events.visitorId)
                    println("${events.flush()} ${events.pending}")
                    println(listOf(events.track("Purchase"), events.track("purchase", LinkEvents.Value(-1, "EUR")),
                        events.track("purchase", LinkEvents.Value(1, "eur")), events.track("install"), events.pending).joinToString(" "))
                }
                "online" -> {
                    val events = LinkEvents(server, key, directory)
                    events.track("purchase", LinkEvents.Value(500, "USD"))
                    println(events.visitorId)
                    println("${events.flush()} ${events.pending}")
                }
                "burst" -> {
                    val events = LinkEvents(server, key, directory, 600_000, 10)
                    for (n in 0 until 300) events.track("step", LinkEvents.Value(n.toLong(), "EUR"))
                    events.reportInstall(null)
                    while (true) Thread.sleep(1000)
                }
                "retry" -> {
                    // A stand-in for linkd: the first send answered 429 with Retry-After: 2 (longer than the first backoff),
                    // the next ones 202.
                    val calls = java.util.Collections.synchronizedList(ArrayList<Long>())
                    val standIn = com.sun.net.httpserver.HttpServer.create(java.net.InetSocketAddress("127.0.0.1", 0), 0)
                    standIn.createContext("/") { exchange ->
                        exchange.requestBody.readBytes()
                        calls.add(System.currentTimeMillis())
                        val first = calls.size == 1
                        if (first) exchange.responseHeaders.add("Retry-After", "2")
                        exchange.sendResponseHeaders(if (first) 429 else 202, -1)
                        exchange.close()
                    }
                    standIn.start()
                    val events = LinkEvents("http://127.0.0.1:" + standIn.address.port, key, directory, 0)
                    events.track("retried")
                    val until = System.currentTimeMillis() + 60_000
                    while (events.pending > 0 && System.currentTimeMillis() < until) Thread.sleep(20)
                    standIn.stop(0)
                    val gap = if (calls.size > 1) calls[1] - calls[0] else 0L
                    println(events.visitorId)
                    println("${calls.size} ${gap >= 2000 && gap < 3000}")
                }
                "drain" -> {
                    val events = LinkEvents(server, key, directory, 0, 10)
                    println(events.visitorId)
                    println("${events.flush()} ${events.pending}")
                }
                else -> {
                    val events = LinkEvents(server, key, directory)
                    events.reportInstall(null)
                    val threads = (0 until 8).map { worker ->
                        Thread(Runnable { for (n in 0 until 50) events.track("step", LinkEvents.Value((worker * 100 + n).toLong(), "EUR")) })
                    }
                    threads.forEach { it.start() }
                    threads.forEach { it.join() }
                    val lines = queued()
                    println("${events.pending} ${lines.size} ${lines.toSet().size} ${LinkEvents(server, key, directory).pending}")
                }
            }
            System.exit(0)
        }
        """#
}
