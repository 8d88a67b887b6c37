import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// The generated `LinkEvents` (docs/CODEGEN.md, "Events"), compiled with its language's compiler and a driver
/// (`GeneratedEventsDrivers`), against a real linkd with the app's publishable key: a first launch offline queues the
/// install (the deferred claim's token), the open (the inbox's link) and named events in a file; the next launch sends
/// them; a process killed while its queue drains leaves the rest to the next. Each event arrives exactly once, the
/// install and open attributed to the stored link. And many threads (TypeScript: calls made while sends are on their
/// way) tracking at once lose and double nothing.
@Suite(.serialized) struct GeneratedEventsTests {
    /// Swift 6 language mode, warnings as errors, under the thread sanitizer.
    @Test func swiftEventsArriveOnce() throws {
        try Self.journey(language: "swift") { directory, source in
            for (name, text) in [("Links.swift", source), ("main.swift", Self.swiftMain)] {
                try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            let binary = directory.appendingPathComponent("events").path
            try GeneratedRouterTests.compile(
                "/usr/bin/env",
                [
                    "swiftc", "-Onone", "-swift-version", "6", "-strict-concurrency=complete", "-warnings-as-errors", "-sanitize=thread",
                    "-o", binary, directory.appendingPathComponent("Links.swift").path, directory.appendingPathComponent("main.swift").path,
                ])
            return { arguments in try Subprocess(binary, arguments) }
        }
    }

    /// Debian's `kotlinc` 1.3.31 with warnings as errors, no Android classes: plain JVM.
    @Test func kotlinEventsArriveOnce() throws {
        try Self.journey(language: "kotlin") { directory, source in
            let package = try #require(source.split(separator: "\n").first { $0.hasPrefix("package ") }).dropFirst("package ".count)
            let files = [("Links.kt", source), ("Main.kt", "import \(package).*\n\n" + Self.kotlinMain)]
            for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
            let jar = directory.appendingPathComponent("events.jar").path
            try GeneratedRouterTests.compile(
                "/usr/bin/env",
                ["kotlinc", "-Werror", "-include-runtime", "-d", jar] + files.map { directory.appendingPathComponent($0.0).path })
            return { arguments in try Subprocess("/usr/bin/env", ["java", "-jar", jar] + arguments) }
        }
    }

    /// `tsc --strict` for ES2017, run by Node.js with its global `fetch`.
    @Test func typescriptEventsArriveOnce() throws {
        try Self.journey(language: "typescript") { directory, source in
            try source.write(to: directory.appendingPathComponent("links.ts"), atomically: true, encoding: .utf8)
            try Self.typescriptMain.write(to: directory.appendingPathComponent("main.ts"), atomically: true, encoding: .utf8)
            let out = directory.appendingPathComponent("out").path
            try GeneratedRouterTests.compile(
                "/usr/bin/env",
                [
                    "tsc", "--strict", "--noUnusedLocals", "--noUnusedParameters", "--noImplicitReturns",
                    "--target", "es2017", "--module", "commonjs", "--outDir", out,
                    directory.appendingPathComponent("links.ts").path, directory.appendingPathComponent("main.ts").path,
                ])
            return { arguments in try Subprocess("/usr/bin/env", ["nodejs", out + "/main.js"] + arguments) }
        }
    }

    /// Generates an Android app's router in `language`, has `prepare` compile it with its driver (it returns how to start
    /// the driver with arguments), and drives it through the launches above.
    static func journey(language: String, prepare: (URL, String) throws -> (([String]) throws -> Subprocess)) throws {
        try TestService.with { service in
            let workspace = try CodegenWorkspace(service, platform: "android")
            let link = try Fixture.expect(
                201,
                service.request(
                    "POST", "/v1/links?acknowledgeMoves=true", key: workspace.key,
                    json: """
                        {"domain":"links.example.com","slug":"spring","app":"\(workspace.app)",
                         "destination":{"type":"widgetDetail","params":{"id":9}},"campaign":{"source":"push","campaign":"spring"}}
                        """)
            ).json["id"]!.stringValue!
            let appKey = try Fixture.expect(200, service.request("POST", "/v1/apps/\(workspace.app)/event-key", key: workspace.key))
                .json["key"]!.stringValue!
            // The stored link tapped on an Android phone without the app: the Play Store link's referrer.
            var referrer: String?
            try waitUntil("the landing page of /spring") {
                let page = try LandingTests.click(service, "/spring", agent: LandingTests.Agent.android).text
                let store = LandingTests.href(page, "get").flatMap(URLComponents.init(string:))
                referrer = store?.queryItems?.first { $0.name == "referrer" }?.value
                return referrer?.hasPrefix("linkd_token=") == true
            }
            let given = try #require(referrer) + "&utm_source=linkd"

            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(language)-\(getpid())")
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let start = try prepare(directory, try workspace.codegen(language).text)
            let online = "http://127.0.0.1:\(service.port)"
            // Nothing listens on port 1: every send is refused, as offline.
            let offline = "http://127.0.0.1:1"
            func run(_ mode: String, _ server: String, _ queue: String, _ extra: [String] = []) throws -> [String] {
                let process = try start([mode, server, appKey, directory.appendingPathComponent(queue).path] + extra)
                let status = try process.wait(timeout: 120)
                #expect(status == 0, "\(mode): \(process.standardOutput) \(process.standardError)")
                return process.standardOutput.split(separator: "\n").map(String.init)
            }

            // The first launch, offline: four events queued in the file.
            let first = try run("offline", offline, "app", [given, "https://links.example.com/spring?utm_source=mail"])
            #expect(first.count == 3 && first.dropFirst().first == "false 4", "\(first)")
            #expect(first.last == "false false false false 4", "malformed events are refused: \(first)")
            let visitor = try #require(first.first)
            let file = directory.appendingPathComponent("app/linkd-events")
            #expect(try String(contentsOf: file, encoding: .utf8).split(separator: "\n").count == 5)
            #expect(try Self.events(service, visitor).isEmpty)
            // The next launch, online: those and a new purchase, each once; then nothing is left to send.
            #expect(try run("online", online, "app") == [visitor, "true 0"])
            #expect(try run("drain", online, "app") == [visitor, "true 0"])
            let stored = try Self.events(service, visitor)
            #expect(stored.map(\.name).sorted() == ["install", "open", "purchase", "purchase", "signup"], "\(stored)")
            let install = try #require(stored.first { $0.name == "install" })
            #expect(install.attribution == "click_token" && install.link == link, "the install through the referrer's token: \(install)")
            #expect(install.key == visitor + "-install")
            let open = try #require(stored.first { $0.name == "open" })
            #expect(open.attribution == "link_url" && open.link == link && open.source == "mail", "the open through its URL: \(open)")
            let euros = try #require(stored.first { $0.currency == "EUR" })
            #expect(euros.value == 1299 && euros.attribution == "visitor" && euros.link == link, "\(euros)")
            #expect(stored.first { $0.currency == "USD" }?.value == 500)
            // Placed by when they happened (the first launch), not when they arrived.
            #expect(install.occurredAt <= open.occurredAt && open.occurredAt <= euros.occurredAt)
            #expect(stored.allSatisfy { $0.occurredAt < $0.receivedAt })

            // Killed while its queue drains (ten a request: linkd takes 120 requests a minute from an address): the next
            // launch sends the rest, each once.
            // Killed once linkd has accepted some (counted as they are answered: they are stored within moments).
            let acceptedBefore = service.application.events.counters.accepted
            let burst = try start(["burst", online, appKey, directory.appendingPathComponent("burst").path])
            let burstFile = directory.appendingPathComponent("burst/linkd-events")
            var burstVisitor = ""
            try waitUntil("the killed launch to send some of its queue") {
                let text = (try? String(contentsOf: burstFile, encoding: .utf8)) ?? ""
                let header = text.split(separator: "\n").first?.split(separator: " ") ?? []
                burstVisitor = header.count == 4 ? String(header[2]) : ""
                return !burstVisitor.isEmpty && service.application.events.counters.accepted - acceptedBefore >= 10
            }
            burst.signal(SIGKILL)
            _ = try burst.wait(timeout: 60)
            let atKill = try Self.events(service, burstVisitor).count
            let left = try String(contentsOf: burstFile, encoding: .utf8).split(separator: "\n").count - 1
            #expect(left > 0, "the process was killed with events queued")
            let drained = try run("drain", online, "burst")
            #expect(drained == [burstVisitor, "true 0"], "stored at the kill: \(atKill), left: \(left)")
            let steps = try Self.events(service, burstVisitor).filter { $0.name == "step" }.compactMap(\.value)
            #expect(steps.count > atKill - 1, "the next launch sent the rest")
            #expect(steps.sorted() == Array(0..<300), "every step once: \(steps.count) stored")

            // A 429's Retry-After is waited out: TypeScript's `fetch` given (the first answer replaced by a 429, the
            // second reaching linkd), Swift's and Kotlin's sends answered by a stand-in (a 429, then 202).
            let retried = try run("retry", online, "retry")
            #expect(retried.dropFirst() == ["2 true"], "\(retried)")
            if language == "typescript" {
                #expect(try Self.events(service, retried.first ?? "").map(\.name).sorted() == ["install", "retried"])
            }

            // Many threads at once, offline: every event queued once, in memory and in the file.
            let threads = try run("threads", offline, "threads")
            let expected = language == "typescript" ? ["true true true true true"] : ["401 401 401 401"]
            #expect(threads == expected, "\(threads)")
        }
    }

    struct Stored: CustomStringConvertible {
        let name: String
        let key: String
        let value: Int?
        let currency: String?
        let attribution: String
        let link: String?
        let source: String?
        let occurredAt: Date
        let receivedAt: Date
        var description: String { "\(name) \(attribution) \(link ?? "-") \(value.map(String.init) ?? "-") \(currency ?? "-")" }
    }

    /// The events stored for `visitor`, in time order, once every event accepted is written (docs/EVENTS.md, "Storing").
    static func events(_ service: TestService, _ visitor: String) throws -> [Stored] {
        try EventsAPITests.settle(service)
        return try service.application.pool.withConnection { connection in
            try connection.query(
                """
                SELECT name, idempotency_key, value_minor, currency, attribution, link_id::text, utm_source, occurred_at, received_at
                FROM events WHERE visitor_id = \(visitor) ORDER BY occurred_at, id
                """
            ).map { row in
                try Stored(
                    name: row.decode(0), key: row.decode(1), value: row.decode(2), currency: row.decode(3), attribution: row.decode(4),
                    link: row.decode(5), source: row.decode(6), occurredAt: row.decode(7), receivedAt: row.decode(8))
            }
        }
    }
}
