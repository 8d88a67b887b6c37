import Foundation
import LinkKit
@testable import LinkService
import Testing
import TestSupport

/// Generated routers compiled with their language's own compiler and run over the fixtures and over generated
/// URLs: they must answer what resolve answers, for every one (docs/CODEGEN.md).
@Suite(.serialized) struct GeneratedRouterTests {
    /// Swift 6 language mode (strict concurrency), warnings as errors, the glue file with its stand-ins in the same
    /// module; for an iOS app, the inbox's stress run is compiled again under the thread sanitizer.
    @Test(arguments: ["ios", "android"]) func swiftRouterAgreesWithResolve(platform: String) throws {
        try Self.agree(language: "swift", platform: platform) { directory, source, glue in
            let glued = glue!.replacingOccurrences(of: "#if canImport(UIKit)", with: "#if true")
                .split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !["import SwiftUI", "import UIKit", "import UserNotifications"].contains($0) }.joined(separator: "\n")
            let files = [
                ("Links.swift", source), ("LinksGlue.swift", glued), ("StandIns.swift", GlueStandIns.swift), ("main.swift", Self.swiftMain),
            ]
            for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
            // No force unwrap, force cast or `try!` in what an app commits, the glue included.
            #expect(Self.forceUnwraps(source) == [], "generated Swift force-unwraps")
            #expect(Self.forceUnwraps(glue!) == [], "the Swift glue force-unwraps")
            // Only an Android app's file carries Android's matcher.
            #expect(source.contains("struct Android") == (platform == "android"))
            let binary = directory.appendingPathComponent("router").path
            // `LINKS_GLUE`: the driver's notification mode drives the glue too (the stress build has no glue).
            try Self.compile(
                "/usr/bin/env",
                [
                    "swiftc", "-Onone", "-swift-version", "6", "-strict-concurrency=complete", "-warnings-as-errors",
                    "-D", "LINKS_GLUE", "-o", binary,
                ] + files.map { directory.appendingPathComponent($0.0).path })
            // Held links survive the process: one process holds them, the next one's inbox hands each out once.
            let held = directory.appendingPathComponent("Application Support/held-links").path
            #expect(try Self.run(binary, ["persist"], input: "hold\n\(held)\n") == ["[0, 1, 0] 2"])
            let profiles = try [
                "https://links.example.com/u/00000000-0000-4000-8000-000000000002",
                "https://links.example.com/u/00000000-0000-4000-8000-000000000003",
            ].map { try Self.routedJSON($0, binary) ?? "null" }
            #expect(try Self.run(binary, ["persist"], input: "take\n\(held)\n") == ["2 ", profiles.joined(separator: ","), "0 false"])
            // One tap, one opening: a notification given again by identifier (a cold launch's options and the delegate).
            #expect(try Self.run(binary, ["notifications"], input: "") == ["[1, 0, 1, 1, 1]", "[1, 0]", "1"])
            if platform == "ios" {
                let sanitized = directory.appendingPathComponent("stress").path
                try Self.compile(
                    "/usr/bin/env",
                    [
                        "swiftc", "-Onone", "-swift-version", "6", "-sanitize=thread", "-o", sanitized,
                        directory.appendingPathComponent("Links.swift").path, directory.appendingPathComponent("main.swift").path,
                    ])
                let stress = try Self.run(sanitized, ["stress"], input: "")
                #expect(stress == ["1600 1600 0"], "every link handed out once, with no data race")
            }
            return { mode, input in try Self.run(binary, [mode], input: input) }
        }
    }

    /// The scanner `swiftRouterAgreesWithResolve` checks the generated Swift with sees code only.
    @Test func forceUnwrapScannerSeesCodeOnly() {
        let source = ##"""
            let a = b! // c!
            /* d! */ let e = "f!" + g[0]! + "\(h!)" + #"i!"# + "\"j!"
            let k = l != m && !n, o = p as! Q, r = try! s()
            let t = """
                u!
                """
            """##
        #expect(Self.forceUnwraps(source).map { $0.prefix(7) } == ["line 1:", "line 2:", "line 2:", "line 3:", "line 3:"])
    }

    @Test(arguments: ["ios", "android"]) func typescriptRouterAgreesWithResolve(platform: String) throws {
        try Self.agree(language: "typescript", platform: platform) { directory, source, _ in
            try source.write(to: directory.appendingPathComponent("links.ts"), atomically: true, encoding: .utf8)
            try Self.typescriptMain.write(to: directory.appendingPathComponent("main.ts"), atomically: true, encoding: .utf8)
            let out = directory.appendingPathComponent("out").path
            try Self.compile(
                "/usr/bin/env",
                [
                    "tsc", "--strict", "--noUnusedLocals", "--noUnusedParameters", "--noImplicitReturns",
                    "--target", "es2017", "--module", "commonjs", "--outDir", out,
                    directory.appendingPathComponent("links.ts").path, directory.appendingPathComponent("main.ts").path,
                ])
            return { mode, input in try Self.run("/usr/bin/env", ["nodejs", out + "/main.js", mode], input: input) }
        }
    }

    /// The router, the glue with the Android stand-ins and the driver compiled (warnings as errors) by Debian's
    /// `kotlinc` 1.3.31, the oldest version docs/CODEGEN.md promises, and by a current compiler (`CurrentKotlin`);
    /// one JVM run per mode, its input in a file. The routes and builds of the current compiler's classes are
    /// the old one's. The files are in a package (an Android app's own; the one asked for an iOS app's), and Java
    /// code calling them is compiled against both compilers' classes (`javac`) and run.
    @Test(arguments: ["ios", "android"]) func kotlinRouterAgreesWithResolve(platform: String) throws {
        try Self.agree(language: "kotlin", platform: platform) { directory, source, glue in
            let package = try #require(source.split(separator: "\n").first { $0.hasPrefix("package ") }).dropFirst("package ".count)
            #expect(package == (platform == "android" ? "com.example.widgets" : "com.example.ios.`fun`"))
            let files =
                [("Links.kt", source), ("LinksGlue.kt", glue!), ("Main.kt", "import \(package).*\n" + Self.kotlinMain)]
                + GlueStandIns.kotlin
            for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
            let paths = files.map { directory.appendingPathComponent($0.0).path }
            let jar = directory.appendingPathComponent("router.jar").path
            try Self.compile("/usr/bin/env", ["kotlinc", "-Werror", "-include-runtime", "-d", jar] + paths)
            let current = try CurrentKotlin.required()
            let classes = directory.appendingPathComponent("current").path
            if let current { try CurrentKotlin.compile(paths, into: classes, jars: current) }
            let java = directory.appendingPathComponent("JavaMain.java")
            try ("import \(package.replacingOccurrences(of: "`", with: "")).*;\n" + Self.javaMain).write(
                to: java, atomically: true, encoding: .utf8)
            let javaClasses = directory.appendingPathComponent("java").path
            try Self.compile("/usr/bin/env", ["javac", "-Werror", "-Xlint:all", "-cp", jar, "-d", javaClasses, java.path])
            if let current {
                try Self.compile(
                    "/usr/bin/env",
                    [
                        "javac", "-Werror", "-Xlint:all", "-cp", classes + ":" + current.stdlib,
                        "-d", directory.appendingPathComponent("java-current").path, java.path,
                    ])
            }
            // Releasing many held links is linear (the issue measured 20,000 at 0.5-0.7 s when it was quadratic);
            // a parameterless destination prints as its name.
            let releaseInput = directory.appendingPathComponent("input-release.txt")
            try "50000\n".write(to: releaseInput, atomically: true, encoding: .utf8)
            let released = try Self.run("/usr/bin/env", ["java", "-jar", jar, "release", releaseInput.path], input: "")
            let figures = released.first?.split(separator: " ").compactMap { Int($0) } ?? []
            #expect(figures.first == 50_000 && figures.count == 2 && figures[1] < 1_500, "held links released (count, ms): \(released)")
            #expect(released.dropFirst().first == "Account Home")
            return { mode, input in
                if mode == "java" { return try Self.run("/usr/bin/env", ["java", "-cp", jar + ":" + javaClasses, "JavaMain"], input: "") }
                let file = directory.appendingPathComponent("input-\(mode).txt")
                try input.write(to: file, atomically: true, encoding: .utf8)
                let printed = try Self.run("/usr/bin/env", ["java", "-jar", jar, mode, file.path], input: "")
                if let current, ["route", "extras", "builds"].contains(mode) {
                    let again = try Self.run(
                        "/usr/bin/env", ["java", "-cp", classes + ":" + current.stdlib, "MainKt", mode, file.path], input: "")
                    #expect(again == printed, "the current Kotlin compiler's classes answer as Kotlin 1.3's (\(mode))")
                }
                return printed
            }
        }
    }

    /// What `binary` routes `url` to (resolve's JSON), nil for nothing.
    static func routedJSON(_ url: String, _ binary: String) throws -> String? {
        try run(binary, ["route"], input: url + "\n").first.flatMap { $0 == "null" ? nil : $0 }
    }

    /// The force unwraps (`x!`), force casts (`as!`) and `try!` of Swift source, outside comments and string
    /// literals (an interpolation's code is code): each as its line.
    static func forceUnwraps(_ source: String) -> [String] {
        let text = Array(source.unicodeScalars)
        var found: [String] = []
        var index = 0
        var line = 1
        // The string literals open (their `#` count, whether multi-line, and the paren depth of an interpolation in them).
        var strings: [(hashes: Int, multiline: Bool, depth: Int)] = []
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < text.count ? text[index + offset] : nil }
        func isWordOrClose(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar == ")" || scalar == "]" || (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar)))
        }
        while index < text.count {
            let scalar = text[index]
            if scalar == "\n" { line += 1 }
            if let open = strings.last, open.depth == 0 {
                // Inside a string: an escape, an interpolation, or its end.
                if scalar == "\\" {
                    var hashes = 0
                    while at(1 + hashes) == "#" { hashes += 1 }
                    if hashes == open.hashes, at(1 + hashes) == "(" { strings[strings.count - 1].depth = 1; index += 2 + hashes; continue }
                    index += 2 + hashes
                    continue
                }
                let quotes = open.multiline ? 3 : 1
                if (0..<quotes).allSatisfy({ at($0) == "\"" }), (0..<open.hashes).allSatisfy({ at(quotes + $0) == "#" }) {
                    strings.removeLast()
                    index += quotes + open.hashes
                    continue
                }
                index += 1
                continue
            }
            if scalar == "/", at(1) == "/" {
                while index < text.count, text[index] != "\n" { index += 1 }
                continue
            }
            if scalar == "/", at(1) == "*" {
                while index < text.count, !(text[index] == "*" && at(1) == "/") { if text[index] == "\n" { line += 1 }; index += 1 }
                index += 2
                continue
            }
            var hashes = 0
            while at(hashes) == "#" { hashes += 1 }
            if at(hashes) == "\"" {
                let multiline = at(hashes + 1) == "\"" && at(hashes + 2) == "\""
                strings.append((hashes, multiline, 0))
                index += hashes + (multiline ? 3 : 1)
                continue
            }
            if !strings.isEmpty {
                if scalar == "(" { strings[strings.count - 1].depth += 1 }
                if scalar == ")" {
                    strings[strings.count - 1].depth -= 1; if strings[strings.count - 1].depth == 0 { index += 1; continue }
                }
            }
            if scalar == "!", index > 0, isWordOrClose(text[index - 1]), at(1) != "=" {
                found.append(
                    "line \(line): "
                        + source.split(separator: "\n", omittingEmptySubsequences: false)[line - 1].trimmingCharacters(in: .whitespaces))
            }
            index += 1
        }
        return found
    }

    static func compile(_ executable: String, _ arguments: [String]) throws {
        let compiler = try Subprocess(executable, arguments, mergeErrors: true)
        let status = try compiler.wait(timeout: 400)
        guard status == 0 else { throw TestFailure("\(arguments.first ?? executable): \(compiler.standardOutput)") }
    }

    /// Generates the app's router in `language`, has `prepare` compile it with its driver, and checks that it
    /// answers what resolve answers on every fixture and generated URL, and the builder and pending link. For an
    /// Android app, resolve is asked for Android (`platform`), whose matcher the router must follow.
    static func agree(
        language: String, platform: String,
        prepare: (URL, String, String?) throws -> ((String, String) throws -> [String])
    ) throws {
        try TestService.with { service in
            let workspace = try CodegenWorkspace(service, platform: platform)
            try workspace.addTargetedLinks()
            // An Android app's Kotlin is in its package by default; an iOS app's where asked (a keyword part quoted).
            let query = language == "kotlin" && platform == "ios" ? "?package=com.example.ios.fun" : ""
            let source = try workspace.codegen(language + query)
            #expect(source.text.contains(platform == "android" ? "Decides as Android does" : "Decides as iOS does"))
            let fixtures = try workspace.codegen("fixtures").json
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-\(language)-\(platform)-\(getpid())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let glue = language == "typescript" ? nil : try workspace.codegen(language + "-glue" + query).text
            let run = try prepare(directory, source.text, glue)

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
            #expect(
                disagreements.isEmpty,
                "\(disagreements.count) of \(urls.count) URLs disagree:\n\(disagreements.prefix(20).joined(separator: "\n"))")
            // The fixtures' own answers are resolve's; targeted links are handed to it.
            for (index, fixture) in listed.enumerated() {
                let destination = fixture["destination"].map { $0 == .null ? "null" : $0.serialized } ?? "absent"
                let answer = fixture["needsResolve"] == .bool(true) ? "resolve" : destination
                #expect(answer == resolved[index], "\(fixtureURLs[index])")
            }
            // The targeted links are fixtures, and the router hands them to resolve rather than decide them offline.
            for url in CodegenWorkspace.targetedURLs {
                #expect(urls.firstIndex(of: url).map { routed[$0] } == "resolve", "\(url)")
            }
            // Byte for byte, the issue's example (resolve's bytes are its JSON writer's).
            let direct = try Fixture.expect(
                200,
                service.request(
                    "GET", "/v1/resolve?url=https://links.example.com/widget/42&log=false&platform=\(platform)", key: workspace.key))
            #expect(direct.text.contains(#""destination":{"type":"widgetDetail","params":{"id":42}}"#))
            #expect(routed[urls.firstIndex(of: "https://links.example.com/widget/42")!] == #"{"type":"widgetDetail","params":{"id":42}}"#)
            // The app's scheme, on either platform (an Android app's as Android's matcher decides it).
            #expect(routed[urls.firstIndex(of: "widgets://widget/42")!] == #"{"type":"widgetDetail","params":{"id":42}}"#)
            // Every spelling docs/LINKS.md accepts is a fixture, routed as resolve routes it (above).
            for spelling in ["widgets:///widget/42", "widgets:widget/42", "widgets:/widget/42"] {
                #expect(urls.firstIndex(of: spelling).map { routed[$0] } == #"{"type":"widgetDetail","params":{"id":42}}"#, "\(spelling)")
            }
            #expect(urls.firstIndex(of: "widgets:account").map { routed[$0] } == #"{"type":"account","params":{}}"#)

            let extras = try run("extras", "")
            #expect(extras.count == extrasCount)
            #expect(extras.first == "https://links.example.com/widget/42?tab=reviews")
            #expect(extras.dropFirst().first == "widgets://widget/42?tab=reviews")
            #expect(extras.dropFirst(2).first == "https://links.example.com/docs/guides/a%20b")
            #expect(extras.dropFirst(3).first == "true true true true")
            #expect(extras.dropFirst(4).first.map { source.text.contains("Rules ETag: " + $0) } == true)
            // An optional parameter left out is built as the server builds it: without its item.
            #expect(extras.dropFirst(5).first == "https://links.example.com/widget/7")
            #expect(extras.dropFirst(6).first == #"{"type":"widgetDetail","params":{"id":42}}"#)
            #expect(extras.dropFirst(7).first == "5a1d0e4c-8b1e-4f55-9c3a-0d2b6e7f8a90")
            let built = try workspace.expected(["https://links.example.com/widget/42?tab=reviews", "https://links.example.com/widget/7"])
            #expect(
                built == [#"{"type":"widgetDetail","params":{"id":42,"tab":"reviews"}}"#, #"{"type":"widgetDetail","params":{"id":7}}"#])

            try buildsAgreeWithTheServer(workspace, fixtures["builds"]!.arrayValue!, run)
            try inboxAgreesWithTheModel(run)
            try claimRoundTrip(workspace, platform: platform, run)
            try resolveRoundTrip(workspace, run)
            try autoResolveRoundTrip(workspace, run)
            if language == "kotlin" { try androidGlue(workspace, platform: platform, run) }
        }
    }

    /// The Kotlin glue driven through an activity's lifecycle (`TestActivity`, `JavaMain`): which intents are read,
    /// rotations and stops, the Install Referrer's answers, a real claim answered after a rotation, and held links
    /// read back by the inbox of a restarted process.
    static func androidGlue(_ workspace: CodegenWorkspace, platform: String, _ run: (String, String) throws -> [String]) throws {
        let widget = { (n: Int) in #"{"type":"widgetDetail","params":{"id":\#(n)}}"# }
        #expect(
            try run("java", "") == [
                widget(42), "https://links.example.com/widget/7 widgets://widget/7", "id", "true",
                "0 1 link true \(platform == "ios" ? 1 : 0)",
                "0123456789abcdef0123456789abcdef", widget(9),
            ])
        guard platform == "android" else { return }
        let page = try LandingTests.click(workspace.service, "/widget/31", agent: LandingTests.Agent.android).text
        let store = try #require(LandingTests.href(page, "get"))
        let referrer = try #require(URLComponents(string: store)?.queryItems?.first { $0.name == "referrer" }?.value) + "&utm_source=linkd"
        let profile = #"{"type":"profile","params":{"user":"00000000-0000-4000-8000-000000000007"}}"#
        let invalid = #"{"error":{"code":"invalid_param","param":"id","detail":"The parameter 'id' is invalid."}}"#
        let glued = try run("glue", "http://127.0.0.1:\(workspace.service.port)\n\(referrer)\n")
        #expect(
            glued == [
                "send: recents: view:0,\(widget(3))",
                "rotated:0,\(widget(4)),\(widget(5)) held:0",
                "organic true 1 true", "unsupported true 1 true", "unavailable true 1 true", "remote true 1 true",
                "recreated 0",
                "destroyed: started:\(widget(31)) held:0 claimed:true",
                "0|\(profile),\(widget(8)),\(invalid)|\(widget(8)),\(invalid)|\(profile)|0",
            ], "the glue printed:\n\(glued.joined(separator: "\n"))")
    }

    /// The fixtures' builds are what `POST /v1/links/build` answers, byte for byte; the router's `buildResult` gives
    /// the same URLs and refuses the same destinations, naming the parameter in the server's words.
    static func buildsAgreeWithTheServer(
        _ workspace: CodegenWorkspace, _ builds: [JSONValue], _ run: (String, String) throws -> [String]
    ) throws {
        #expect(builds.count > 20)
        let body = JSONValue.object([
            "links": .array(builds.map { .object(["app": .string(workspace.app), "destination": $0["destination"]!]) })
        ]).serialized
        let answers = try Fixture.expect(200, workspace.service.request("POST", "/v1/links/build", key: workspace.key, json: body)).json[
            "results"]!.arrayValue!
        #expect(answers.count == builds.count)
        var expected: [String] = []
        for (build, answer) in zip(builds, answers) {
            if let problem = answer["error"]?["errors"]?.arrayValue?.first {
                let param = build["error"]?["param"]?.stringValue
                #expect(build["error"]?["detail"] == problem["detail"], "\(build.serialized): \(answer.serialized)")
                #expect(
                    problem["pointer"]?.stringValue?.hasSuffix(param.map { "/destination/params/" + $0 } ?? "/destination") == true,
                    "\(answer.serialized)")
                expected.append("E " + (param ?? "-") + " " + (param == nil ? "" : build["error"]!["detail"]!.stringValue!))
            } else {
                #expect(
                    build["universal"] != nil && build["universal"] == answer["universal"] && build["scheme"] == answer["scheme"],
                    "\(build.serialized): \(answer.serialized)")
                expected.append((answer["universal"]?.stringValue ?? "?") + " " + (answer["scheme"]?.stringValue ?? "none"))
            }
        }
        // What the issue names: a literal path, a query capture with an optional left out, refusals with reasons.
        func key(_ destination: JSONValue) -> String {
            guard case .object(let params)? = destination["params"] else { return "" }
            return ([destination["type"]!.stringValue!] + params.map { $0.key + "=" + $0.value.serialized }.sorted()).joined(separator: " ")
        }
        let answered = Dictionary(zip(builds.map { key($0["destination"]!) }, expected), uniquingKeysWith: { first, _ in first })
        // Both platforms' apps declare the scheme `widgets` (CodegenWorkspace), so both build its link.
        #expect(answered["account"] == "https://links.example.com/account widgets://account")
        #expect(answered["search q=\"aa\""]?.hasPrefix("https://links.example.com/search?q=aa ") == true)
        // The issue's push campaign: `search(q: "red shoes")`.
        #expect(answered[#"search q="red shoes""#]?.hasPrefix("https://links.example.com/search?q=red%20shoes ") == true)
        #expect(
            answered[#"search exact=true q="red shoes""#]?.hasPrefix("https://links.example.com/search?q=red%20shoes&exact=true ") == true)
        #expect(answered[#"widgetDetail id=0 tab="new-arrivals""#] == "E id The parameter 'id' is invalid: 0 is less than the minimum 1.")
        #expect(answered[#"search exact=true q="""#] == "E q The parameter 'q' cannot be empty: resolve reads an empty value as absent.")
        #expect(answered["home"]?.hasPrefix("https://links.example.com/start?src=push#top ") == true)

        func kind(_ value: JSONValue) -> String {
            switch value {
            case .number(let text): "i:" + text
            case .bool(let flag): "b:\(flag)"
            case .string(let text): (UUID(uuidString: text) != nil ? "u:" : "s:") + text
            default: "s:"
            }
        }
        let lines = builds.map { build -> String in
            let destination = build["destination"]!
            guard case .object(let params)? = destination["params"] else { return destination["type"]!.stringValue! }
            return ([destination["type"]!.stringValue!] + params.map { $0.key + "=" + kind($0.value) }).joined(separator: "\t")
        }
        let built = try run("builds", lines.joined(separator: "\n") + "\n")
        #expect(built.count == builds.count)
        var disagreements: [String] = []
        for (index, line) in built.enumerated() where index < expected.count {
            // A refusal without a parameter (no rule prints the destination) is worded by the server alone.
            let agrees = expected[index] == "E - " ? line.hasPrefix("E - ") : line == expected[index]
            if !agrees { disagreements.append("\(lines[index]): router \(line), server \(expected[index])") }
        }
        #expect(
            disagreements.isEmpty,
            "\(disagreements.count) of \(builds.count) builds disagree:\n\(disagreements.prefix(20).joined(separator: "\n"))")
    }

    /// Every sequence of up to five arrival and state events, run through the generated inbox, against `InboxModel`.
    static func inboxAgreesWithTheModel(_ run: (String, String) throws -> [String]) throws {
        let sequences = InboxModel.sequences(upTo: 5)
        #expect(sequences.count == 37_448)
        let printed = try run("inbox", sequences.joined(separator: "\n") + "\n")
        #expect(printed.count == sequences.count)
        var disagreements: [String] = []
        var violations: [String] = []
        for (index, sequence) in sequences.enumerated() where index < printed.count {
            let expected = InboxModel.expected(sequence)
            if printed[index] != expected { disagreements.append("\(sequence): inbox \(printed[index]), model \(expected)") }
            violations += InboxModel.violations(sequence, expected)
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) sequences disagree:\n\(disagreements.prefix(10).joined(separator: "\n"))")
        #expect(violations.isEmpty, "\(violations.prefix(10).joined(separator: "\n"))")
        // The model is not empty-handed: most sequences with the app ready hand something out.
        #expect(printed.filter { $0.contains("widgetDetail") }.count > sequences.count / 4)
    }

    /// A real landing page's click token claimed by the generated client: the claim link on the pasteboard for an
    /// iOS app (its domain opted in), the Play referrer for an Android one; the answer reaches a ready inbox once,
    /// and a second claim asks nothing.
    static func claimRoundTrip(_ workspace: CodegenWorkspace, platform: String, _ run: (String, String) throws -> [String]) throws {
        let agent = platform == "ios" ? LandingTests.Agent.iPhone : LandingTests.Agent.android
        let page = try LandingTests.click(workspace.service, "/widget/42?tab=info", agent: agent).text
        let given: String
        if platform == "ios" {
            given = try #require(LandingTests.attribute(page, after: "id=\"get\"", "data-claim"))
        } else {
            let store = try #require(LandingTests.href(page, "get"))
            given = try #require(URLComponents(string: store)?.queryItems?.first { $0.name == "referrer" }?.value) + "&utm_source=linkd"
        }
        let token =
            given.hasPrefix("https://")
            ? String(given.split(separator: "/").last!) : String(given.dropFirst("linkd_token=".count).prefix(32))
        let input = "http://127.0.0.1:\(workspace.service.port)\n\(given)\nlinkd.codegen.\(UUID().uuidString)\n"
        let claimed = try run("claim", input)
        let expected = try workspace.expected(["https://links.example.com/widget/42?tab=info"])
        #expect(expected == [#"{"type":"widgetDetail","params":{"id":42,"tab":"info"}}"#])
        #expect(claimed == [token] + expected + ["none", "none"])
        // The token was claimed by the client: linkd answers no more.
        let again = try workspace.service.request("POST", "/v1/deferred/claim", json: #"{"token":"\#(token)"}"#)
        #expect(again.status == 410)
    }

    /// What `GET /v1/resolve` answers for each of `urls` to the drivers' visitor (v1, from Germany, German, OS 17.4):
    /// each destination serialized, "null" where there is none.
    static func destinationsForTheVisitor(_ workspace: CodegenWorkspace, _ urls: [String]) throws -> [String] {
        try urls.map { url in
            let encoded = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let answer = try Fixture.expect(
                200,
                workspace.service.request(
                    "GET",
                    "/v1/resolve?url=\(encoded)&platform=\(workspace.platform)&app=\(workspace.app)&visitorId=v1&country=DE&language=de&osVersion=17.4&log=false",
                    key: workspace.key)
            ).json
            return answer["destination"]?.serialized ?? "null"
        }
    }

    /// The targeted links resolved by the generated client against a real linkd, with the visitor's context: what
    /// `GET /v1/resolve` answers that visitor; and the explicit error destination when linkd cannot be reached.
    static func resolveRoundTrip(_ workspace: CodegenWorkspace, _ run: (String, String) throws -> [String]) throws {
        let urls = CodegenWorkspace.targetedURLs
        let input = "http://127.0.0.1:\(workspace.service.port)\n\(workspace.key)\n" + urls.joined(separator: "\n") + "\n"
        let resolved = try run("resolve", input)
        let expected = try destinationsForTheVisitor(workspace, urls)
        // Visitors from Germany get the target's split (widget 3 or 4), in the scheme as at the domain; `sale` a variant.
        #expect(["3", "4"].contains { expected[0] == #"{"type":"widgetDetail","params":{"id":\#($0)}}"# }, "\(expected)")
        #expect(expected[1] == expected[0] && expected[2] != "null")
        #expect(resolved == expected + [#"{"error":{"code":"resolve_unavailable","detail":"linkd could not be reached."}}"#])
    }

    /// The targeted links taken by an inbox with a resolver: handed out when linkd's answer arrives, the destination
    /// `GET /v1/resolve` answers that visitor (nothing at once); nothing taken without a resolver; the explicit error
    /// destination when linkd cannot be reached or does not answer in time (well within the bound, whether it says
    /// nothing or a byte now and then); held, without `onResolved`, until the next call that hands out.
    static func autoResolveRoundTrip(_ workspace: CodegenWorkspace, _ run: (String, String) throws -> [String]) throws {
        let silent = try SilentListener()
        let trickling = try TricklingServer()
        let urls = CodegenWorkspace.targetedURLs
        let input =
            "http://127.0.0.1:\(workspace.service.port)\n\(workspace.key)\n\(silent.port)\n\(trickling.port)\n"
            + urls.joined(separator: "\n") + "\n"
        // The servers must outlive the run: their ports are the ones that never answer.
        let taken = try withExtendedLifetime((silent, trickling)) { try run("autoresolve", input) }
        let expected = try destinationsForTheVisitor(workspace, urls)
        #expect(!expected.contains("null"), "\(expected)")
        let unavailable = #"{"error":{"code":"resolve_unavailable","detail":"linkd "#
        #expect(
            taken
                == expected.map { " " + $0 } + [
                    "#0", " " + unavailable + #"could not be reached."}}"#, " " + unavailable + #"did not answer in time."}}"#,
                    " " + unavailable + #"did not answer in time."}}"#, "1 " + expected[0],
                ])
    }

    /// Variations of the fixture URLs: case flips, added slashes, segments and query items, encoded letters,
    /// fragments, other hosts.
    static func generatedURLs(from urls: [String]) -> [String] {
        var generator = SystemRandomNumberGenerator()
        var out: [String] = []
        let pieces = [
            "/", "/x", "?tab=info", "&tab=reviews", "#info", "%2F", "%41", "?q=%C3%A9t%C3%A9&exact=no", "?exact=1&q=ab", "//", ".", "%zz",
            "?tab=", "#",
        ]
        for url in urls {
            for _ in 0..<3 {
                var mutated = url
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: mutated += pieces.randomElement(using: &generator)!
                case 1: mutated = String(mutated.map { Bool.random(using: &generator) ? Character($0.uppercased()) : $0 })
                case 2:
                    // Within the path (after `scheme://authority/`): a piece in the authority would make no URL.
                    if let cut = mutated.lastIndex(of: "/"), mutated[..<cut].filter({ $0 == "/" }).count >= 3 {
                        mutated.insert(contentsOf: pieces.randomElement(using: &generator)!, at: cut)
                    }
                default:
                    mutated = mutated.replacingOccurrences(
                        of: "links.example.com",
                        with: ["a.example.org", "shop.example.org", "example.org", "other.example.net"].randomElement(using: &generator)!)
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
