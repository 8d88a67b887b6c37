import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Generated routers compiled with their language's own compiler and run over the fixtures and over generated
/// URLs: they must answer what resolve answers, for every one (docs/CODEGEN.md).
@Suite(.serialized) struct GeneratedRouterTests {
    /// The Swift driver: `route` reads URLs (one a line) and prints each answer's JSON (`null` for none),
    /// checking that the decoder reads the JSON back; `extras` prints the builder's and the pending link's answers.
    static let swiftMain = #"""
        if CommandLine.arguments.dropFirst().first == "extras" {
            let built = LinkRouter.build(.widgetDetail(id: 42, tab: .reviews))
            print(built?.universal ?? "none")
            print(built?.scheme ?? "none")
            print(LinkRouter.build(.docs(page: "guides/a b")).map { $0.universal } ?? "none")
            let profile = LinkRouter.route("https://links.example.com/u/5A1D0E4C-8B1E-4F55-9C3A-0D2B6E7F8A90")!
            let pending = PendingLink()
            print(profile.requiresSignIn, pending.open(profile) == nil, pending.userSignedIn() == profile, pending.userSignedIn() == nil)
            print(LinkRouter.etag)
        } else {
            while let line = readLine() {
                let destination = LinkRouter.route(line)
                if let destination, LinkDestination(resolveJSON: "{\"destination\":" + destination.json + "}") != destination {
                    print("decoder disagrees: " + destination.json)
                } else {
                    print(destination?.json ?? "null")
                }
            }
        }
        """#

    /// The TypeScript driver, as the Swift one.
    static let typescriptMain = #"""
        import { LinkRouter, toJSON, decodeDestination, PendingLink, requiresSignIn } from "./links";
        declare const process: { argv: string[]; stdout: { write(text: string): void } };
        declare function require(name: string): { readFileSync(fd: number, encoding: string): string };
        const lines: string[] = [];
        if (process.argv[2] === "extras") {
            const built = LinkRouter.build({ type: "widgetDetail", params: { id: 42, tab: "reviews" } });
            lines.push(built ? built.universal : "none", built && built.scheme ? built.scheme : "none");
            const docs = LinkRouter.build({ type: "docs", params: { page: "guides/a b" } });
            lines.push(docs ? docs.universal : "none");
            const profile = LinkRouter.route("https://links.example.com/u/5A1D0E4C-8B1E-4F55-9C3A-0D2B6E7F8A90")!;
            const pending = new PendingLink();
            const kept = pending.open(profile) === null;
            const handed = pending.userSignedIn();
            lines.push(`${requiresSignIn(profile)} ${kept} ${handed !== null && toJSON(handed) === toJSON(profile)} ${pending.userSignedIn() === null}`);
            lines.push(LinkRouter.etag);
        } else {
            const input = require("fs").readFileSync(0, "utf8").split("\n");
            input.pop();
            for (const line of input) {
                const destination = LinkRouter.route(line);
                const back = destination && decodeDestination("{\"destination\":" + toJSON(destination) + "}");
                if (destination && (!back || toJSON(back) !== toJSON(destination))) lines.push("decoder disagrees: " + toJSON(destination));
                else lines.push(destination ? toJSON(destination) : "null");
            }
        }
        process.stdout.write(lines.join("\n") + "\n");
        """#

    /// The Kotlin driver: one JVM run reads the URLs from the file named by its argument and prints the route
    /// answers, then the extras (the JVM starts slowly, so the suite starts it once).
    static let kotlinMain = #"""
        fun main(args: Array<String>) {
            val out = StringBuilder()
            for (line in java.io.File(args[0]).readLines()) {
                val destination = LinkRouter.route(line)
                if (destination != null && LinkDestination.fromResolveJSON("{\"destination\":" + destination.toJSON() + "}") != destination) {
                    out.append("decoder disagrees: " + destination.toJSON()).append('\n')
                } else {
                    out.append(destination?.toJSON() ?: "null").append('\n')
                }
            }
            val built = LinkRouter.build(LinkDestination.WidgetDetail(42, LinkDestination.WidgetDetailTab.REVIEWS))
            out.append(built?.universal ?: "none").append('\n')
            out.append(built?.scheme ?: "none").append('\n')
            out.append(LinkRouter.build(LinkDestination.Docs("guides/a b"))?.universal ?: "none").append('\n')
            val profile = LinkRouter.route("https://links.example.com/u/5A1D0E4C-8B1E-4F55-9C3A-0D2B6E7F8A90")!!
            val pending = PendingLink()
            out.append("${profile.requiresSignIn} ${pending.open(profile) == null} ${pending.userSignedIn() == profile} ${pending.userSignedIn() == null}\n")
            out.append(LinkRouter.etag).append('\n')
            print(out)
        }
        """#

    @Test(arguments: ["ios", "android"]) func swiftRouterAgreesWithResolve(platform: String) throws {
        try Self.agree(language: "swift", platform: platform) { directory, source in
            try source.write(to: directory.appendingPathComponent("Links.swift"), atomically: true, encoding: .utf8)
            try Self.swiftMain.write(to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
            let binary = directory.appendingPathComponent("router").path
            try Self.compile("/usr/bin/env", ["swiftc", "-Onone", "-o", binary, directory.appendingPathComponent("Links.swift").path,
                                              directory.appendingPathComponent("main.swift").path])
            return { mode, input in try Self.run(binary, [mode], input: input) }
        }
    }

    @Test(arguments: ["ios", "android"]) func typescriptRouterAgreesWithResolve(platform: String) throws {
        try Self.agree(language: "typescript", platform: platform) { directory, source in
            try source.write(to: directory.appendingPathComponent("links.ts"), atomically: true, encoding: .utf8)
            try Self.typescriptMain.write(to: directory.appendingPathComponent("main.ts"), atomically: true, encoding: .utf8)
            let out = directory.appendingPathComponent("out").path
            try Self.compile("/usr/bin/env", ["tsc", "--strict", "--noUnusedLocals", "--target", "es2017", "--module", "commonjs", "--outDir", out,
                                              directory.appendingPathComponent("links.ts").path, directory.appendingPathComponent("main.ts").path])
            return { mode, input in try Self.run("/usr/bin/env", ["nodejs", out + "/main.js", mode], input: input) }
        }
    }

    /// One `kotlinc` compile and one JVM run for the whole URL set: `route` runs it and keeps the extras'
    /// five lines for `extras`.
    @Test(arguments: ["ios", "android"]) func kotlinRouterAgreesWithResolve(platform: String) throws {
        try Self.agree(language: "kotlin", platform: platform) { directory, source in
            try source.write(to: directory.appendingPathComponent("Links.kt"), atomically: true, encoding: .utf8)
            try Self.kotlinMain.write(to: directory.appendingPathComponent("Main.kt"), atomically: true, encoding: .utf8)
            let jar = directory.appendingPathComponent("router.jar").path
            try Self.compile("/usr/bin/env", ["kotlinc", "-nowarn", "-include-runtime", "-d", jar, directory.appendingPathComponent("Links.kt").path,
                                              directory.appendingPathComponent("Main.kt").path])
            var extras: [String] = []
            return { mode, input in
                guard mode == "route" else { return extras }
                let file = directory.appendingPathComponent("urls.txt")
                try input.write(to: file, atomically: true, encoding: .utf8)
                let lines = try Self.run("/usr/bin/env", ["java", "-jar", jar, file.path], input: "")
                extras = Array(lines.suffix(5))
                return Array(lines.dropLast(5))
            }
        }
    }

    static func compile(_ executable: String, _ arguments: [String]) throws {
        let compiler = try Subprocess(executable, arguments, mergeErrors: true)
        let status = try compiler.wait(timeout: 400)
        guard status == 0 else { throw TestFailure("\(arguments.first ?? executable): \(compiler.standardOutput)") }
    }

    /// Generates the app's router in `language`, has `prepare` compile it with its driver, and checks that it
    /// answers what resolve answers on every fixture and generated URL, and the builder and pending link. For an
    /// Android app, resolve is asked for Android (`platform`), whose matcher the router must follow.
    static func agree(language: String, platform: String,
                      prepare: (URL, String) throws -> ((String, String) throws -> [String])) throws {
        try TestService.with { service in
            let workspace = try CodegenWorkspace(service, platform: platform)
            let source = try workspace.codegen(language)
            #expect(source.text.contains(platform == "android" ? "Decides as Android does" : "Decides as iOS does"))
            let fixtures = try workspace.codegen("fixtures").json
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(language)-\(platform)-\(getpid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try prepare(directory, source.text)

            let listed = fixtures["fixtures"]!.arrayValue!
            let fixtureURLs = listed.map { $0["url"]!.stringValue! }
            #expect(fixtureURLs.count > 80)
            // Most fixtures open the app (the rules are the app's): a router that routes nothing cannot pass.
            #expect(listed.filter { $0["destination"] != .null }.count > fixtureURLs.count / 3)
            let urls = fixtureURLs + generatedURLs(from: fixtureURLs)
            let routed = try run("route", urls.joined(separator: "\n") + "\n")
            #expect(routed.count == urls.count)
            let resolved = try workspace.expected(urls)
            var disagreements: [String] = []
            for (index, url) in urls.enumerated() where index < routed.count && routed[index] != resolved[index] {
                disagreements.append("\(url): router \(routed[index]), resolve \(resolved[index])")
            }
            #expect(disagreements.isEmpty, "\(disagreements.count) of \(urls.count) URLs disagree:\n\(disagreements.prefix(20).joined(separator: "\n"))")
            // The fixtures' own answers are resolve's.
            for (index, fixture) in listed.enumerated() {
                #expect((fixture["destination"].map { $0 == .null ? "null" : $0.serialized } ?? "absent") == resolved[index], "\(fixtureURLs[index])")
            }
            // Byte for byte, the issue's example (resolve's bytes are its JSON writer's).
            let direct = try Fixture.expect(200, service.request(
                "GET", "/v1/resolve?url=https://links.example.com/widget/42&log=false&platform=\(platform)", key: workspace.key))
            #expect(direct.text.contains(#""destination":{"type":"widgetDetail","params":{"id":42}}"#))
            #expect(routed[urls.firstIndex(of: "https://links.example.com/widget/42")!] == #"{"type":"widgetDetail","params":{"id":42}}"#)
            if platform == "ios" {
                #expect(routed[urls.firstIndex(of: "widgets://widget/42")!] == #"{"type":"widgetDetail","params":{"id":42}}"#)
            }

            let extras = try run("extras", "")
            #expect(extras.count == 5)
            #expect(extras.first == "https://links.example.com/widget/42?tab=reviews")
            #expect(extras.dropFirst().first == (platform == "ios" ? "widgets://widget/42?tab=reviews" : "none"))
            #expect(extras.dropFirst(2).first == "https://links.example.com/docs/guides/a%20b")
            #expect(extras.dropFirst(3).first == "true true true true")
            #expect(extras.last.map { source.text.contains("Rules ETag: " + $0) } == true)
            let built = try workspace.expected(["https://links.example.com/widget/42?tab=reviews"])
            #expect(built == [#"{"type":"widgetDetail","params":{"id":42,"tab":"reviews"}}"#])
        }
    }

    /// Variations of the fixture URLs: case flips, added slashes, segments and query items, encoded letters,
    /// fragments, other hosts.
    static func generatedURLs(from urls: [String]) -> [String] {
        var generator = SystemRandomNumberGenerator()
        var out: [String] = []
        let pieces = ["/", "/x", "?tab=info", "&tab=reviews", "#info", "%2F", "%41", "?q=%C3%A9t%C3%A9&exact=no", "?exact=1&q=ab", "//", ".", "%zz", "?tab=", "#"]
        for url in urls {
            for _ in 0..<3 {
                var mutated = url
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: mutated += pieces.randomElement(using: &generator)!
                case 1: mutated = String(mutated.map { Bool.random(using: &generator) ? Character($0.uppercased()) : $0 })
                case 2:
                    // Within the path (after `scheme://authority/`): a piece in the authority would make no URL.
                    if let cut = mutated.lastIndex(of: "/"), mutated[..<cut].filter({ $0 == "/" }).count >= 3 { mutated.insert(contentsOf: pieces.randomElement(using: &generator)!, at: cut) }
                default: mutated = mutated.replacingOccurrences(of: "links.example.com", with: ["a.example.org", "shop.example.org", "example.org", "other.example.net"].randomElement(using: &generator)!)
                }
                out.append(mutated)
            }
        }
        return out
    }

    /// Runs `binary` with `input` and returns its output lines.
    static func run(_ binary: String, _ arguments: [String], input: String) throws -> [String] {
        let process = try Subprocess(binary, arguments, input: Array(input.utf8))
        let status = try process.wait(timeout: 120)
        #expect(status == 0, "\(binary): \(process.standardError)")
        return process.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}
