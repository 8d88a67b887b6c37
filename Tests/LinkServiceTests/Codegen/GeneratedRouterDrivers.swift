/// The drivers `GeneratedRouterTests` compiles with each generated router. Every driver has the same modes:
/// - `route`: reads URLs (one a line) and prints each answer's JSON (`null` for none), checking that the decoder
///   reads the JSON back;
/// - `extras`: prints the builder's answers, the inbox's sign-in hand-over, the ETag, a build with an optional
///   parameter left out, a route from the language's URL type and a UUID parameter's value (`extrasCount` lines);
/// - `builds`: reads destinations (one a line: the type, then tab-separated `name=k:value`, `k` the kind: `i` int,
///   `b` bool, `u` uuid, `s` string or enum value), made without the router's checks, and prints what `buildResult`
///   gives: `<universal> <scheme or none>`, or `E <param or -> <detail>`;
/// - `inbox`: reads event sequences (`InboxModel`), one a line, and prints what a fresh `LinkInbox` hands out at
///   each event, `|`-separated, then `#` and the count it still holds;
/// - `release` (Kotlin): holds the number of links the input says, prints how many a ready inbox hands out and in
///   how many milliseconds, then how two parameterless destinations print;
/// - `claim`: reads the server's base URL, a claim link or install referrer, and a record key; prints the token
///   found, what a ready inbox hands out after the claim, what a second claim gives, and the token a claim link
///   on a domain that did not opt in gives;
/// - `resolve`: reads the server's base URL, a key and targeted links (one a line); prints what the resolve client
///   answers for each for the visitor `v1` from Germany, speaking German, on OS 17.4, then what it answers for the
///   first when linkd cannot be reached. (In `route`, a URL `decide` hands to resolve prints `resolve`.)
/// - `autoresolve`: reads the server's base URL, a key, the port of a server that never answers, the port of one
///   that answers a byte every half second, and targeted links; for each link, a ready inbox with a resolver for
///   that visitor takes it: prints what it hands out at once, a space, then what it hands to `onResolved`; then the
///   first link taken by an inbox without a resolver (what it hands out, `#`, what it holds), by one whose linkd
///   cannot be reached, by one whose linkd does not answer, and by one whose linkd trickles (a one-second timeout
///   each: ` late` is added when the answer took more than five seconds), and by one without `onResolved` (how many
///   it holds once resolved, then what `appReady` hands out).
extension GeneratedRouterTests {
    static let extrasCount = 8

    static let swiftMain = #"""
        import Foundation
        #if canImport(FoundationNetworking)
        import FoundationNetworking
        #endif

        func widget(_ n: Int) -> String { "https://links.example.com/widget/\(n)" }
        func user(_ n: Int) -> String { "https://links.example.com/u/00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - String(n).count) + String(n) }
        func line(_ handed: [LinkDestination]) -> String { handed.map(\.json).joined(separator: ",") }

        /// Encoded and decoded (`Codable`), and resolve's JSON decoded, it is the same destination, with the same hash.
        func codableAndHashable(_ destination: LinkDestination) -> Bool {
            guard let coded = try? JSONDecoder().decode(LinkDestination.self, from: JSONEncoder().encode(destination)),
                  let read = try? JSONDecoder().decode(LinkDestination.self, from: Data(destination.json.utf8)) else { return false }
            return coded == destination && read == destination && Set([destination, coded, read]).count == 1
                && coded.hashValue == destination.hashValue
        }

        /// One event of the inbox model on `inbox`, the n-th of its sequence.
        func apply(_ event: Character, _ n: Int, _ inbox: LinkInbox) -> [LinkDestination] {
            switch event {
            case "w": return inbox.receive(URL(string: widget(n))!)
            case "n": return inbox.receive(notification: [AnyHashable(LinkInbox.notificationKey): widget(n), AnyHashable("aps"): ["alert": "Hi"]])
            case "s": return inbox.receive(user(n))
            case "x": return inbox.receive("https://other.example.net/widget/\(n)")
            case "d": return inbox.receive(LinkDestination(resolveJSON: "{\"type\":\"widgetDetail\",\"params\":{\"id\":\(n)}}")!)
            case "r": return inbox.appReady()
            case "i": return inbox.userSignedIn()
            default: inbox.userSignedOut(); return []
            }
        }

        /// Threads receive while others report readiness and sign-in: every link is handed out once (run under TSan).
        func stress() {
            final class Handed: @unchecked Sendable {   // `done` guards `items` and `running`
                let done = NSCondition()
                var items: [String] = []
                var running = 8
                func keep(_ destinations: [LinkDestination]) { done.lock(); items += destinations.map(\.json); done.unlock() }
                func finished() { done.lock(); running -= 1; done.signal(); done.unlock() }
                func wait() { done.lock(); while running > 0 { done.wait() }; done.unlock() }
            }
            let inbox = LinkInbox(storage: nil)
            let handed = Handed()
            // Threads of their own: work on a dispatch queue may run one item after another.
            for worker in 0..<8 {
                Thread {
                    for n in 0..<200 {
                        let id = worker * 1000 + n + 1
                        handed.keep(worker % 2 == 0 ? inbox.receive(widget(id)) : inbox.receive(user(id)))
                        if n == 100 && worker == 3 { handed.keep(inbox.appReady()) }
                        if n == 150 && worker == 6 { handed.keep(inbox.userSignedIn()) }
                        _ = inbox.held.count
                    }
                    handed.finished()
                }.start()
            }
            handed.wait()
            handed.keep(inbox.appReady())
            handed.keep(inbox.userSignedIn())
            print(handed.items.count, Set(handed.items).count, inbox.held.count)
        }

        #if LINKS_GLUE
        /// docs/CODEGEN.md's notification delegate: the inbox takes the response off the main actor, only the
        /// destinations cross to it.
        @MainActor final class AppDelegate: UNUserNotificationCenterDelegate {
            let inbox = LinkInbox(ready: true, storage: nil)
            var opened: [LinkDestination] = []
            func open(_ destinations: [LinkDestination]) { opened += destinations }

            nonisolated func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
                let handed = inbox.receive(response)    // `inbox`: a `let` of the `Sendable` LinkInbox
                await MainActor.run { open(handed) }
            }
        }
        #endif

        switch CommandLine.arguments.dropFirst().first {
        case "extras":
            let built = LinkRouter.build(.widgetDetail(id: 42, tab: .reviews))
            print(built?.universal.absoluteString ?? "none")
            print(built?.scheme?.absoluteString ?? "none")
            print(LinkRouter.build(.docs(page: "guides/a b")).map { $0.universal.absoluteString } ?? "none")
            let profile = LinkRouter.route("https://links.example.com/u/5A1D0E4C-8B1E-4F55-9C3A-0D2B6E7F8A90")!
            let inbox = LinkInbox(ready: true, storage: nil)
            print(profile.requiresSignIn, inbox.receive(profile).isEmpty, inbox.userSignedIn() == [profile], inbox.userSignedIn().isEmpty)
            print(LinkRouter.etag)
            print(LinkRouter.build(.widgetDetail(id: 7)).map { $0.universal.absoluteString } ?? "none")
            print(LinkRouter.route(URL(string: "https://links.example.com/widget/42")!)?.json ?? "null")
            if case .profile(let id) = profile {
                let typed: UUID = id
                print(typed.uuidString.lowercased())
            } else {
                print("not a profile")
            }
        case "builds":
            while let line = readLine() {
                var fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                let type = fields.removeFirst()
                var values: [String: LinkRouter.Value] = [:]
                for field in fields {
                    let name = String(field.prefix { $0 != "=" })
                    let rest = field.drop { $0 != "=" }.dropFirst()
                    let text = String(rest.dropFirst(2))
                    switch rest.first {
                    case "i": values[name] = .int(Int64(text) ?? 0)
                    case "b": values[name] = .bool(text == "true")
                    case "u": values[name] = .uuid(text)
                    default: values[name] = .string(text)
                    }
                }
                // `make` takes the values in the spec's order.
                guard let spec = LinkRouter.table.specs.first(where: { $0.type == type }),
                      let destination = LinkDestination.make(type, spec.params.map { values[$0.name] }) else { print("unmade"); continue }
                switch LinkRouter.buildResult(destination) {
                case .success(let urls): print(urls.universal.absoluteString + " " + (urls.scheme?.absoluteString ?? "none"))
                case .failure(let error): print("E " + (error.param ?? "-") + " " + error.detail)
                }
            }
        case "inbox":
            while let sequence = readLine() {
                let inbox = LinkInbox(storage: nil)
                let outputs = sequence.enumerated().map { line(apply($1, $0 + 1, inbox)) }
                print(outputs.joined(separator: "|") + "#\(inbox.held.count)")
            }
        case "stress":
            stress()
        case "claim":
            let server = URL(string: readLine()!)!
            let given = readLine()!
            // The record in a suite of the test's own, the claim over a session of its own (both injected).
            let recordKey = readLine()!
            let defaults = UserDefaults(suiteName: recordKey)!
            let claim = LinkDeferredClaim(server: server, recordKey: recordKey, defaults: defaults, session: URLSession(configuration: .ephemeral))
            defaults.removeObject(forKey: claim.recordKey)
            defer { defaults.removeObject(forKey: claim.recordKey) }
            let token = LinkDeferredClaim.token(fromClaimLink: given) ?? LinkDeferredClaim.token(fromReferrer: given)
            print(token ?? "none")
            print(line(await claim.claim(token ?? "", into: LinkInbox(ready: true, storage: nil))))
            // Asked again, it asks nothing: the record is in the injected defaults.
            print(UserDefaults.standard.bool(forKey: claim.recordKey) ? "recorded in .standard" : await claim.claim(token ?? "")?.json ?? "none")
            print(LinkDeferredClaim.token(fromClaimLink: "https://other.example.net/_linkd/claim/" + (token ?? "")) ?? "none")
        case "persist":
            // One phase a process: `hold` ends with links held, `take` is the next process.
            let phase = readLine()!
            let file = URL(fileURLWithPath: readLine()!)
            if phase == "hold" {
                let inbox = LinkInbox(ready: true, storage: file)
                let handed = [inbox.receive(user(2)), inbox.receive(widget(1)), inbox.receive(user(3))]
                print(handed.map(\.count), inbox.held.count)
            } else {
                let inbox = LinkInbox(storage: file)
                print(inbox.held.count, line(inbox.appReady()))
                print(line(inbox.userSignedIn()))
                print(LinkInbox(storage: file).held.count, FileManager.default.fileExists(atPath: file.path))
            }
        case "notifications":
            // A notification given twice (by identifier) is taken once; without an identifier, every time.
            let inbox = LinkInbox(ready: true, storage: nil)
            let payload: [AnyHashable: Any] = [LinkInbox.notificationKey: widget(5)]
            print([inbox.receive(notification: payload, identifier: "tap-1"), inbox.receive(notification: payload, identifier: "tap-1"),
                   inbox.receive(notification: payload, identifier: "tap-2"), inbox.receive(notification: payload),
                   inbox.receive(notification: payload)].map(\.count))
            #if LINKS_GLUE
            // A cold launch from a tap: the scene's options carry the response, and the delegate is called too.
            let response = UNNotificationResponse()
            response.notification.request.content.userInfo = payload
            let options = UIScene.ConnectionOptions()
            options.notificationResponse = response
            print([inbox.receive(options), inbox.receive(response)].map(\.count))
            // docs/CODEGEN.md's delegate, as written there.
            let delegate = AppDelegate()
            await delegate.userNotificationCenter(.current(), didReceive: response)
            print(delegate.opened.count)
            #endif
        case "resolve":
            let server = URL(string: readLine()!)!
            let key = readLine()!
            let visitor = LinkResolveClient.Visitor(visitorID: "v1", country: "DE", language: "de", osVersion: "17.4")
            let client = LinkResolveClient(server: server, key: key, session: URLSession(configuration: .ephemeral))
            var urls: [String] = []
            while let url = readLine() {
                urls.append(url)
                print(await client.resolve(url, visitor: visitor)?.json ?? "null")
            }
            let offline = LinkResolveClient(server: URL(string: "http://127.0.0.1:1")!, key: key, session: URLSession(configuration: .ephemeral))
            print(await offline.resolve(urls[0], visitor: visitor)?.json ?? "null")
        case "autoresolve":
            let server = URL(string: readLine()!)!
            let key = readLine()!
            let silent = URL(string: "http://127.0.0.1:" + readLine()!)!
            let trickling = URL(string: "http://127.0.0.1:" + readLine()!)!
            var urls: [String] = []
            while let url = readLine() { urls.append(url) }
            let visitor = LinkResolveClient.Visitor(visitorID: "v1", country: "DE", language: "de", osVersion: "17.4")
            func client(_ base: URL, timeout: TimeInterval = 15) -> LinkResolveClient {
                LinkResolveClient(server: base, key: key, session: URLSession(configuration: .ephemeral), timeout: timeout)
            }
            /// What the inbox hands to `onResolved`, waited for (at most 60 s).
            final class Delivered: @unchecked Sendable {   // `done` guards `items`
                let done = NSCondition()
                var items: [[LinkDestination]] = []
                func keep(_ handed: [LinkDestination]) { done.lock(); items.append(handed); done.signal(); done.unlock() }
                func next() -> String {
                    done.lock()
                    defer { done.unlock() }
                    let until = Date().addingTimeInterval(60)
                    while items.isEmpty && done.wait(until: until) {}
                    return items.isEmpty ? "nothing delivered" : line(items.removeFirst())
                }
            }
            func taken(_ url: String, by resolver: LinkResolveClient?) -> String {
                let delivered = Delivered()
                let inbox = LinkInbox(ready: true, storage: nil, resolver: resolver, visitor: visitor, onResolved: { delivered.keep($0) })
                let now = line(inbox.receive(url))
                return resolver == nil ? now + "#\(inbox.held.count)" : now + " " + delivered.next()
            }
            for url in urls { print(taken(url, by: client(server))) }
            print(taken(urls[0], by: nil))
            print(taken(urls[0], by: client(URL(string: "http://127.0.0.1:1")!)))
            /// `taken` by a resolver with a one-second timeout, ` late` added when it took more than five seconds.
            func takenInTime(_ url: String, by base: URL) -> String {
                let start = Date()
                let answer = taken(url, by: client(base, timeout: 1))
                return Date().timeIntervalSince(start) > 5 ? answer + " late" : answer
            }
            print(takenInTime(urls[0], by: silent))
            print(takenInTime(urls[0], by: trickling))
            let holding = LinkInbox(ready: true, storage: nil, resolver: client(server), visitor: visitor)
            _ = holding.receive(notification: [AnyHashable(LinkInbox.notificationKey): urls[0]])
            let until = Date().addingTimeInterval(60)
            while holding.held.isEmpty && Date() < until { try await Task.sleep(nanoseconds: 10_000_000) }
            print(holding.held.count, line(holding.appReady()))
        default:
            while let line = readLine() {
                if case .needsResolve(let url)? = LinkRouter.decide(line) {
                    print(url == line && LinkRouter.route(line) == nil ? "resolve" : "needsResolve disagrees: " + url)
                    continue
                }
                let destination = LinkRouter.route(line)
                if let destination, LinkDestination(resolveJSON: "{\"destination\":" + destination.json + "}") != destination {
                    print("decoder disagrees: " + destination.json)
                } else if let destination, !codableAndHashable(destination) {
                    print("Codable or Hashable disagrees: " + destination.json)
                } else {
                    print(destination?.json ?? "null")
                }
            }
        }
        """#

    /// The TypeScript driver, as the Swift one.
    static let typescriptMain = #"""
        import { LinkRouter, LinkDestination, LinkInbox, LinkDeferredClaim, LinkResolveClient, toJSON, decodeDestination, requiresSignIn } from "./links";
        declare const process: { argv: string[]; stdout: { write(text: string): void } };
        declare function require(name: string): { readFileSync(fd: number, encoding: string): string };
        const widget = (n: number) => "https://links.example.com/widget/" + n;
        const user = (n: number) => "https://links.example.com/u/00000000-0000-4000-8000-" + ("000000000000" + n).slice(-12);
        const line = (handed: LinkDestination[]) => handed.map(toJSON).join(",");
        function apply(event: string, n: number, inbox: LinkInbox): LinkDestination[] {
            switch (event) {
                case "w": return inbox.receiveURL(new URL(widget(n)));
                case "n": return inbox.receiveNotification({ [LinkInbox.notificationKey]: widget(n), aps: { alert: "Hi" } });
                case "s": return inbox.receiveURL(user(n));
                case "x": return inbox.receiveURL("https://other.example.net/widget/" + n);
                case "d": return inbox.receive(decodeDestination("{\"type\":\"widgetDetail\",\"params\":{\"id\":" + n + "}}")!);
                case "r": return inbox.appReady();
                case "i": return inbox.userSignedIn();
                default: inbox.userSignedOut(); return [];
            }
        }
        async function main(): Promise<string[]> {
            const lines: string[] = [];
            const input = require("fs").readFileSync(0, "utf8").split("\n");
            input.pop();
            if (process.argv[2] === "extras") {
                const built = LinkRouter.build({ type: "widgetDetail", params: { id: 42, tab: "reviews" } });
                lines.push(built ? built.universal : "none", built && built.scheme ? built.scheme : "none");
                const docs = LinkRouter.build({ type: "docs", params: { page: "guides/a b" } });
                lines.push(docs ? docs.universal : "none");
                const profile = LinkRouter.route("https://links.example.com/u/5A1D0E4C-8B1E-4F55-9C3A-0D2B6E7F8A90")!;
                const inbox = new LinkInbox(true);
                const kept = inbox.receive(profile).length === 0;
                const handed = inbox.userSignedIn();
                lines.push(`${requiresSignIn(profile)} ${kept} ${handed.length === 1 && toJSON(handed[0]) === toJSON(profile)} ${inbox.userSignedIn().length === 0}`);
                lines.push(LinkRouter.etag);
                const seven = LinkRouter.build({ type: "widgetDetail", params: { id: 7 } });
                lines.push(seven ? seven.universal : "none");
                const routed = LinkRouter.route(new URL("https://links.example.com/widget/42"));
                lines.push(routed ? toJSON(routed) : "null");
                lines.push("type" in profile && profile.type === "profile" ? profile.params.user : "not a profile");
            } else if (process.argv[2] === "builds") {
                for (const line of input) {
                    const fields = line.split("\t");
                    const params: { [name: string]: string | number | boolean } = {};
                    for (const field of fields.slice(1)) {
                        const cut = field.indexOf("=");
                        const text = field.slice(cut + 3);
                        params[field.slice(0, cut)] = field[cut + 1] === "i" ? Number(text) : field[cut + 1] === "b" ? text === "true" : text;
                    }
                    const result = LinkRouter.buildResult({ type: fields[0], params } as unknown as LinkDestination);
                    lines.push(result.ok ? result.urls.universal + " " + (result.urls.scheme ?? "none")
                        : "E " + (result.error.param ?? "-") + " " + result.error.detail);
                }
            } else if (process.argv[2] === "inbox") {
                for (const sequence of input) {
                    const inbox = new LinkInbox();
                    const outputs = sequence.split("").map((event, index) => line(apply(event, index + 1, inbox)));
                    lines.push(outputs.join("|") + "#" + inbox.held.length);
                }
            } else if (process.argv[2] === "claim") {
                const record = new Map<string, string>();
                const store = { getItem: (key: string) => record.get(key) ?? null, setItem: (key: string, value: string) => { record.set(key, value); } };
                const claim = new LinkDeferredClaim(input[0], store);
                const token = LinkDeferredClaim.tokenFromClaimLink(input[1]) ?? LinkDeferredClaim.tokenFromReferrer(input[1]);
                lines.push(token ?? "none");
                lines.push(line(await claim.claimInto(token ?? "", new LinkInbox(true))));
                const again = await claim.claim(token ?? "");
                lines.push(again ? toJSON(again) : "none");
                lines.push(LinkDeferredClaim.tokenFromClaimLink("https://other.example.net/_linkd/claim/" + (token ?? "")) ?? "none");
            } else if (process.argv[2] === "resolve") {
                const visitor = { visitorId: "v1", country: "DE", language: "de", osVersion: "17.4" };
                const client = new LinkResolveClient(input[0], input[1]);
                for (const url of input.slice(2)) {
                    const destination = await client.resolve(url, visitor);
                    lines.push(destination ? toJSON(destination) : "null");
                }
                const offline = await new LinkResolveClient("http://127.0.0.1:1", input[1]).resolve(input[2], visitor);
                lines.push(offline ? toJSON(offline) : "null");
            } else if (process.argv[2] === "autoresolve") {
                const visitor = { visitorId: "v1", country: "DE", language: "de", osVersion: "17.4" };
                const client = (base: string, timeoutMs = 15000) => new LinkResolveClient(base, input[1], undefined, timeoutMs);
                const taken = async (url: string, resolver: LinkResolveClient | null): Promise<string> => {
                    let deliver: (handed: LinkDestination[]) => void = () => undefined;
                    const delivered = new Promise<LinkDestination[]>((resolve) => { deliver = resolve; });
                    const inbox = new LinkInbox(true, false, null, resolver, visitor, (handed) => deliver(handed));
                    const now = line(inbox.receiveURL(url));
                    if (!resolver) return now + "#" + inbox.held.length;
                    let timer: ReturnType<typeof setTimeout> | undefined;
                    const late = new Promise<string>((resolve) => { timer = setTimeout(() => resolve("nothing delivered"), 60000); });
                    const first = await Promise.race([delivered.then(line), late]);
                    clearTimeout(timer);
                    return now + " " + first;
                };
                const urls = input.slice(4);
                for (const url of urls) lines.push(await taken(url, client(input[0])));
                lines.push(await taken(urls[0], null));
                lines.push(await taken(urls[0], client("http://127.0.0.1:1")));
                // A one-second timeout; ` late` added when the answer took more than five seconds.
                const takenInTime = async (port: string): Promise<string> => {
                    const start = Date.now();
                    const answer = await taken(urls[0], client("http://127.0.0.1:" + port, 1000));
                    return Date.now() - start > 5000 ? answer + " late" : answer;
                };
                lines.push(await takenInTime(input[2]));
                lines.push(await takenInTime(input[3]));
                const holding = new LinkInbox(true, false, null, client(input[0]), visitor);
                holding.receiveNotification({ [LinkInbox.notificationKey]: urls[0] });
                for (let waited = 0; holding.held.length === 0 && waited < 60000; waited += 10) {
                    await new Promise<void>((resolve) => { setTimeout(resolve, 10); });
                }
                lines.push(holding.held.length + " " + line(holding.appReady()));
            } else {
                for (const line of input) {
                    const decided = LinkRouter.decide(line);
                    if (decided && "needsResolve" in decided) {
                        lines.push(decided.needsResolve === line && LinkRouter.route(line) === null ? "resolve" : "needsResolve disagrees: " + decided.needsResolve);
                        continue;
                    }
                    const destination = LinkRouter.route(line);
                    const back = destination && decodeDestination("{\"destination\":" + toJSON(destination) + "}");
                    if (destination && (!back || toJSON(back) !== toJSON(destination))) lines.push("decoder disagrees: " + toJSON(destination));
                    else lines.push(destination ? toJSON(destination) : "null");
                }
            }
            return lines;
        }
        main().then((lines) => process.stdout.write(lines.join("\n") + "\n"));
        """#

    /// The Kotlin driver: the mode, then the file holding the input (the JVM reads no standard input here).
    static let kotlinMain = #"""
        import android.content.Intent
        import android.content.SharedPreferences
        import android.net.Uri
        import android.os.Bundle
        import androidx.appcompat.app.AppCompatActivity
        import androidx.lifecycle.Lifecycle
        import androidx.lifecycle.LifecycleRegistry
        import com.android.installreferrer.api.InstallReferrerClient
        import com.android.installreferrer.api.InstallReferrerStateListener
        import com.android.installreferrer.api.ReferrerDetails
        import com.android.installreferrer.api.StandIns

        fun widget(n: Int) = "https://links.example.com/widget/$n"
        fun user(n: Int) = "https://links.example.com/u/00000000-0000-4000-8000-" + n.toString().padStart(12, '0')
        fun line(handed: List<LinkDestination>) = handed.joinToString(",") { it.toJSON() }

        fun apply(event: Char, n: Int, inbox: LinkInbox): List<LinkDestination> = when (event) {
            'w' -> inbox.receive(java.net.URI(widget(n)).toString())
            'n' -> inbox.receiveNotification(mapOf(LinkInbox.NOTIFICATION_KEY to widget(n), "title" to "Hi"))
            's' -> inbox.receive(user(n))
            'x' -> inbox.receive("https://other.example.net/widget/$n")
            'd' -> inbox.receive(LinkDestination.WidgetDetail(n.toLong()))
            'r' -> inbox.appReady()
            'i' -> inbox.userSignedIn()
            else -> { inbox.userSignedOut(); emptyList() }
        }

        class MemoryRecord : LinkDeferredClaim.Record {
            private var done = false
            override fun claimed() = done
            override fun markClaimed() { done = true }
        }

        /** An app's activity: the glue attached in `onCreate`, the lifecycle stepped as Android steps it. */
        class TestActivity(private val inbox: LinkInbox, launching: Intent?, saved: Bundle?) : AppCompatActivity() {
            val opened: MutableList<String> = java.util.Collections.synchronizedList(ArrayList<String>())
            val arrivals: LinkArrivals
            init {
                intent = launching
                arrivals = LinkArrivals.attach(this, inbox, saved) { handed -> handed.forEach { opened.add(it.toJSON()) } }
                step(Lifecycle.Event.ON_CREATE)
            }
            fun step(vararg events: Lifecycle.Event) = events.forEach { (lifecycle as LifecycleRegistry).handleLifecycleEvent(it) }
            fun start() = step(Lifecycle.Event.ON_START, Lifecycle.Event.ON_RESUME)
            fun stop() = step(Lifecycle.Event.ON_PAUSE, Lifecycle.Event.ON_STOP)
            fun destroy() { stop(); step(Lifecycle.Event.ON_DESTROY) }
            override fun toString() = opened.joinToString(",")
        }

        fun view(url: String) = Intent(Intent.ACTION_VIEW, Uri(url))

        class MemoryPreferences : SharedPreferences {
            val values = java.util.concurrent.ConcurrentHashMap<String, Any>()
            override fun getBoolean(key: String, defValue: Boolean) = values[key] as? Boolean ?: defValue
            override fun getString(key: String, defValue: String?) = values[key] as? String ?: defValue
            override fun edit(): SharedPreferences.Editor = object : SharedPreferences.Editor {
                override fun putBoolean(key: String, value: Boolean): SharedPreferences.Editor { values[key] = value; return this }
                override fun putString(key: String, value: String?): SharedPreferences.Editor { if (value == null) values.remove(key) else values[key] = value; return this }
                override fun apply() {}
            }
        }

        /** The Play Store's referrer service, answering `code` (and `referrer`, or a RemoteException) when told to. */
        class FakeReferrerClient(private val code: Int, private val referrer: String?, private val answerAtOnce: Boolean) : InstallReferrerClient() {
            var connections = 0
            var ended = false
            var listener: InstallReferrerStateListener? = null
            override fun startConnection(listener: InstallReferrerStateListener) {
                connections++
                this.listener = listener
                if (answerAtOnce) answer()
            }
            fun answer() = listener!!.onInstallReferrerSetupFinished(code)
            override fun endConnection() { ended = true }
            override val installReferrer: ReferrerDetails get() = ReferrerDetails(referrer ?: throw android.os.RemoteException("the service died"))
        }

        /** Waits (a generous bound) until `done`. */
        fun waitFor(done: () -> Boolean) {
            val end = System.currentTimeMillis() + 20_000
            while (!done() && System.currentTimeMillis() < end) Thread.sleep(10)
        }

        fun glue(server: String, referrer: String): String {
            val lines = ArrayList<String>()
            // Only VIEW intents, and none reopened from Recents; the launching link waits for the activity's start.
            val inbox = LinkInbox()
            val send = TestActivity(inbox, Intent(Intent.ACTION_SEND, Uri(widget(1))), null)
            send.start()
            val recents = TestActivity(inbox, view(widget(2)).also { it.flags = Intent.FLAG_ACTIVITY_LAUNCHED_FROM_HISTORY }, null)
            recents.start()
            val viewed = TestActivity(inbox, view(widget(3)), null)
            val before = viewed.opened.size
            viewed.start()
            lines.add("send:$send recents:$recents view:$before,$viewed")
            // A rotation: the recreated activity replays nothing; a link while stopped waits for the start.
            viewed.destroy()
            val rotated = TestActivity(inbox, viewed.intent, Bundle())
            rotated.start()
            rotated.stop()
            rotated.arrivals.receive(view(widget(4)))
            val whileStopped = rotated.opened.size
            rotated.start()
            rotated.arrivals.receive(Intent(null, null).putExtra(LinkInbox.NOTIFICATION_KEY, widget(5)))
            lines.add("rotated:$whileStopped,$rotated held:${inbox.held.size}")

            // The referrer's answers: each one final (the record marked, one connection, ended), none escaping.
            val answers = listOf(
                "organic" to FakeReferrerClient(InstallReferrerClient.InstallReferrerResponse.OK, "utm_source=google-play&utm_medium=organic", true),
                "unsupported" to FakeReferrerClient(InstallReferrerClient.InstallReferrerResponse.FEATURE_NOT_SUPPORTED, null, true),
                "unavailable" to FakeReferrerClient(InstallReferrerClient.InstallReferrerResponse.SERVICE_UNAVAILABLE, null, true),
                "remote" to FakeReferrerClient(InstallReferrerClient.InstallReferrerResponse.OK, null, true))
            for ((name, client) in answers) {
                StandIns.referrerClient = client
                val record = PreferencesClaimRecord(MemoryPreferences())
                val activity = TestActivity(LinkInbox(), null, null)
                activity.start()
                activity.arrivals.claimInstallReferrer(LinkDeferredClaim(server, record))
                activity.arrivals.claimInstallReferrer(LinkDeferredClaim(server, record))
                TestActivity(LinkInbox(), null, null).arrivals.claimInstallReferrer(LinkDeferredClaim(server, record))
                lines.add("$name ${record.claimed()} ${client.connections} ${client.ended}")
            }
            // A recreated activity does not ask.
            val untouched = FakeReferrerClient(InstallReferrerClient.InstallReferrerResponse.OK, null, true)
            StandIns.referrerClient = untouched
            TestActivity(LinkInbox(), null, Bundle()).arrivals.claimInstallReferrer(LinkDeferredClaim(server, PreferencesClaimRecord(MemoryPreferences())))
            lines.add("recreated ${untouched.connections}")

            // The claim answered after a rotation: the destroyed activity gets nothing, the started one its link.
            val slow = FakeReferrerClient(InstallReferrerClient.InstallReferrerResponse.OK, referrer, false)
            StandIns.referrerClient = slow
            val preferences = MemoryPreferences()
            val claimInbox = LinkInbox(store = PreferencesInboxStore(preferences))
            val first = TestActivity(claimInbox, null, null)
            first.start()
            first.arrivals.claimInstallReferrer(LinkDeferredClaim(server, PreferencesClaimRecord(preferences)))
            first.destroy()
            val second = TestActivity(claimInbox, null, Bundle())
            second.start()
            slow.answer()
            waitFor { second.opened.isNotEmpty() }
            lines.add("destroyed:$first started:$second held:${claimInbox.held.size} claimed:${PreferencesClaimRecord(preferences).claimed()}")

            // Held links outlive the process: a new inbox over the same preferences holds them, and hands each out once.
            val store = PreferencesInboxStore(MemoryPreferences())
            val before1 = LinkInbox(store = store)
            val signIn = before1.receive(user(7)).size
            before1.hold(LinkDestination.WidgetDetail(8))
            before1.receive(LinkDestination.Invalid("invalid_param", "id", "The parameter 'id' is invalid."))
            val restarted = LinkInbox(store = store)
            val heldAfter = restarted.held.joinToString(",") { it.toJSON() }
            val ready = line(restarted.appReady())
            val signedIn = line(restarted.userSignedIn())
            lines.add("$signIn|$heldAfter|$ready|$signedIn|${LinkInbox(store = store).held.size}")
            return lines.joinToString("\n")
        }

        fun main(args: Array<String>) {
            val out = StringBuilder()
            val input = java.io.File(args[1]).readLines()
            when (args[0]) {
                "extras" -> {
                    val built = LinkRouter.build(LinkDestination.WidgetDetail(42, LinkDestination.WidgetDetailTab.REVIEWS))
                    out.append(built?.universal ?: "none").append('\n')
                    out.append(built?.scheme ?: "none").append('\n')
                    out.append(LinkRouter.build(LinkDestination.Docs("guides/a b"))?.universal ?: "none").append('\n')
                    val profile = LinkRouter.route("https://links.example.com/u/5A1D0E4C-8B1E-4F55-9C3A-0D2B6E7F8A90")!!
                    val inbox = LinkInbox(ready = true)
                    out.append("${profile.requiresSignIn} ${inbox.receive(profile).isEmpty()} ${inbox.userSignedIn() == listOf(profile)} ${inbox.userSignedIn().isEmpty()}\n")
                    out.append(LinkRouter.etag).append('\n')
                    out.append(LinkRouter.build(LinkDestination.WidgetDetail(7))?.universal ?: "none").append('\n')
                    out.append(LinkRouter.route(java.net.URI("https://links.example.com/widget/42"))?.toJSON() ?: "null").append('\n')
                    val id: java.util.UUID? = (profile as? LinkDestination.Profile)?.user
                    out.append(id?.toString() ?: "not a profile").append('\n')
                }
                "builds" -> for (line in input) {
                    val fields = line.split("\t")
                    val values = HashMap<String, Any>()
                    for (field in fields.drop(1)) {
                        val rest = field.substringAfter("=")
                        val text = rest.substring(2)
                        values[field.substringBefore("=")] = when (rest[0]) { 'i' -> text.toLong(); 'b' -> text == "true"; else -> text }
                    }
                    val destination = LinkDestination.make(fields[0], values)
                    val result = if (destination == null) null else LinkRouter.buildResult(destination)
                    out.append(when (result) {
                        is LinkBuildResult.Built -> result.urls.universal + " " + (result.urls.scheme ?: "none")
                        is LinkBuildResult.Refused -> "E " + (result.param ?: "-") + " " + result.detail
                        null -> "unmade"
                    }).append('\n')
                }
                "release" -> {
                    val inbox = LinkInbox()
                    val count = input[0].toInt()
                    for (n in 1..count) inbox.receive(LinkDestination.WidgetDetail(n.toLong()))
                    val start = System.nanoTime()
                    val handed = inbox.appReady()
                    out.append(handed.size).append(' ').append((System.nanoTime() - start) / 1000000).append('\n')
                    out.append(LinkDestination.Account).append(' ').append(LinkDestination.Home).append('\n')
                }
                "inbox" -> for (sequence in input) {
                    val inbox = LinkInbox()
                    out.append(sequence.mapIndexed { index, event -> line(apply(event, index + 1, inbox)) }.joinToString("|"))
                    out.append("#").append(inbox.held.size).append('\n')
                }
                "glue" -> out.append(glue(input[0], input[1])).append('\n')
                "claim" -> {
                    val claim = LinkDeferredClaim(input[0], MemoryRecord())
                    val token = LinkDeferredClaim.tokenFromClaimLink(input[1]) ?: LinkDeferredClaim.tokenFromReferrer(input[1])
                    out.append(token ?: "none").append('\n')
                    out.append(line(claim.claim(token ?: "", LinkInbox(ready = true)))).append('\n')
                    out.append(claim.claim(token ?: "")?.toJSON() ?: "none").append('\n')
                    out.append(LinkDeferredClaim.tokenFromClaimLink("https://other.example.net/_linkd/claim/" + (token ?: "")) ?: "none").append('\n')
                }
                "resolve" -> {
                    val visitor = LinkResolveClient.Visitor("v1", "DE", "de", "17.4")
                    val client = LinkResolveClient(input[0], input[1])
                    for (url in input.drop(2)) out.append(client.resolve(url, visitor)?.toJSON() ?: "null").append('\n')
                    out.append(LinkResolveClient("http://127.0.0.1:1", input[1]).resolve(input[2], visitor)?.toJSON() ?: "null").append('\n')
                }
                "autoresolve" -> {
                    val visitor = LinkResolveClient.Visitor("v1", "DE", "de", "17.4")
                    fun taken(url: String, resolver: LinkResolveClient?): String {
                        val delivered = java.util.concurrent.LinkedBlockingQueue<List<LinkDestination>>()
                        val inbox = LinkInbox(ready = true, resolver = resolver, visitor = visitor, onResolved = { delivered.add(it) })
                        val now = line(inbox.receive(url))
                        if (resolver == null) return now + "#" + inbox.held.size
                        return now + " " + (delivered.poll(60, java.util.concurrent.TimeUnit.SECONDS)?.let { line(it) } ?: "nothing delivered")
                    }
                    val urls = input.drop(4)
                    for (url in urls) out.append(taken(url, LinkResolveClient(input[0], input[1]))).append('\n')
                    out.append(taken(urls[0], null)).append('\n')
                    out.append(taken(urls[0], LinkResolveClient("http://127.0.0.1:1", input[1]))).append('\n')
                    // A one-second timeout; ` late` added when the answer took more than five seconds.
                    fun takenInTime(port: String): String {
                        val start = System.nanoTime()
                        val answer = taken(urls[0], LinkResolveClient("http://127.0.0.1:" + port, input[1], 1000))
                        return if (System.nanoTime() - start > 5_000_000_000L) "$answer late" else answer
                    }
                    out.append(takenInTime(input[2])).append('\n')
                    out.append(takenInTime(input[3])).append('\n')
                    val holding = LinkInbox(ready = true, resolver = LinkResolveClient(input[0], input[1]), visitor = visitor)
                    holding.receiveNotification(mapOf(LinkInbox.NOTIFICATION_KEY to urls[0]))
                    val until = System.nanoTime() + 60_000_000_000L
                    while (holding.held.isEmpty() && System.nanoTime() < until) Thread.sleep(10)
                    out.append(holding.held.size).append(' ').append(line(holding.appReady())).append('\n')
                }
                else -> for (url in input) {
                    val decided = LinkRouter.decide(url)
                    if (decided is LinkRoute.NeedsResolve) {
                        out.append(if (decided.url == url && LinkRouter.route(url) == null) "resolve" else "needsResolve disagrees: " + decided.url).append('\n')
                        continue
                    }
                    val destination = LinkRouter.route(url)
                    if (destination != null && LinkDestination.fromResolveJSON("{\"destination\":" + destination.toJSON() + "}") != destination) {
                        out.append("decoder disagrees: " + destination.toJSON()).append('\n')
                    } else {
                        out.append(destination?.toJSON() ?: "null").append('\n')
                    }
                }
            }
            print(out)
        }
        """#

    /// Java code calling the Kotlin files (`import <package>.*` put before it): the router, builder, decoder,
    /// inbox and claim statics, and the glue attached to an `AppCompatActivity` written in Java.
    static let javaMain = #"""
        import androidx.appcompat.app.AppCompatActivity;
        import androidx.lifecycle.Lifecycle;
        import androidx.lifecycle.LifecycleRegistry;
        import java.util.ArrayList;
        import java.util.List;

        public class JavaMain {
            static class MainActivity extends AppCompatActivity {
                final List<String> opened = new ArrayList<>();
                LinkArrivals arrivals;

                void create(LinkInbox inbox) {
                    setIntent(new android.content.Intent(android.content.Intent.ACTION_VIEW, new android.net.Uri("https://links.example.com/widget/9")));
                    arrivals = LinkArrivals.attach(this, inbox, null, handed -> {
                        for (LinkDestination destination : handed) opened.add(destination.toJSON());
                        return kotlin.Unit.INSTANCE;
                    });
                    ((LifecycleRegistry) getLifecycle()).handleLifecycleEvent(Lifecycle.Event.ON_CREATE);
                    ((LifecycleRegistry) getLifecycle()).handleLifecycleEvent(Lifecycle.Event.ON_START);
                }
            }

            public static void main(String[] args) {
                LinkDestination routed = LinkRouter.route("https://links.example.com/widget/42");
                System.out.println(routed == null ? "null" : routed.toJSON());
                LinkURLs urls = LinkRouter.build(new LinkDestination.WidgetDetail(7L));
                System.out.println(urls == null ? "none" : urls.getUniversal() + " " + urls.getScheme());
                LinkBuildResult refused = LinkRouter.buildResult(new LinkDestination.WidgetDetail(0L, LinkDestination.WidgetDetailTab.REVIEWS));
                System.out.println(refused instanceof LinkBuildResult.Refused ? ((LinkBuildResult.Refused) refused).getParam() : "built");
                System.out.println(routed != null && routed.equals(LinkDestination.fromResolveJSON("{\"type\":\"widgetDetail\",\"params\":{\"id\":42}}")));
                LinkInbox inbox = new LinkInbox();
                System.out.println(inbox.receive("https://links.example.com/widget/42").size() + " " + inbox.appReady().size()
                    + " " + LinkInbox.NOTIFICATION_KEY + " " + (LinkRouter.etag.length() > 0) + " " + LinkRouter.claimDomains.size());
                System.out.println(LinkDeferredClaim.tokenFromReferrer("linkd_token=0123456789abcdef0123456789abcdef&utm_source=linkd"));
                MainActivity activity = new MainActivity();
                activity.create(inbox);
                System.out.println(String.join(",", activity.opened));
            }
        }
        """#
}
