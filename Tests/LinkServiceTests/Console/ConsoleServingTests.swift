import Foundation
import HTTPServer
@testable import LinkService
import Testing
import TestSupport

/// The repository's `console/` folder.
let consoleDirectory = migrationsDirectory.deletingLastPathComponent().appendingPathComponent("console")

/// `/console/`: the console's static files with their cache, compression and security headers (docs/CONSOLE.md).
@Suite("Console serving")
struct ConsoleServingTests {
    static func withConsole<T>(_ body: (TestService) throws -> T) throws -> T {
        try TestService.with(configure: { $0.console = .directory(consoleDirectory) }, body)
    }

    @Test func servesTheConsoleWithItsSecurityHeaders() throws {
        try Self.withConsole { service in
            let index = try service.request("GET", "/console/")
            #expect(index.status == 200)
            #expect(index.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(index.text.contains(#"<script type="module" src="app.js">"#))
            let policy = try #require(index.headers["Content-Security-Policy"])
            #expect(policy.hasPrefix("default-src 'self';") && policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe"), "no inline script, no eval")
            #expect(!policy.contains("script-src"), "module scripts and import() fall under default-src 'self'")
            #expect(index.headers["X-Content-Type-Options"] == "nosniff")
            #expect(try service.request("GET", "/console/index.html").body == index.body)
            let script = try service.request("GET", "/console/views/rules.js")
            #expect(script.status == 200 && script.headers["Content-Type"] == "text/javascript; charset=utf-8")
            #expect(try service.request("GET", "/console/console.css").headers["Content-Type"] == "text/css; charset=utf-8")
            let bare = try service.request("GET", "/console")
            #expect(bare.status == 308 && bare.headers["Location"] == "/console/")
        }
    }

    @Test func unknownFilesAndPathsOutsideTheFolderAre404() throws {
        try Self.withConsole { service in
            for path in [
                "/console/nothing.js", "/console/../Package.swift", "/console/%2e%2e/Package.swift", "/console/views/",
                "/console/views/../../migrations/0001_workspaces_and_keys.sql", "/console/README",
            ] {
                let answer = try service.request("GET", path)
                #expect(answer.status == 404, "\(path)")
                #expect(answer.headers["Content-Type"] == "application/problem+json", "\(path)")
            }
        }
    }

    @Test func etagsAnswer304AndGzipIsSentWhenAccepted() throws {
        try Self.withConsole { service in
            let plain = try service.request("GET", "/console/app.js")
            let etag = try #require(plain.headers["ETag"])
            #expect(plain.headers["Cache-Control"] == "no-cache" && plain.headers["Vary"] == "Accept-Encoding")
            #expect(plain.headers["Content-Encoding"] == nil)
            let again = try service.request("GET", "/console/app.js", headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty && again.headers["ETag"] == etag)

            let zipped = try service.request("GET", "/console/app.js", headers: [("Accept-Encoding", "br, gzip;q=0.8")])
            #expect(zipped.headers["Content-Encoding"] == "gzip")
            let zippedTag = try #require(zipped.headers["ETag"])
            #expect(zippedTag != etag, "each representation has its own strong tag")
            #expect(zipped.body.count < plain.body.count)
            #expect(try Self.gunzip(zipped.body) == plain.body)
            #expect(
                try service.request("GET", "/console/app.js", headers: [("If-None-Match", zippedTag), ("Accept-Encoding", "gzip")]).status
                    == 304)
            let refused = try service.request("GET", "/console/app.js", headers: [("Accept-Encoding", "gzip;q=0, identity")])
            #expect(refused.headers["Content-Encoding"] == nil && refused.body == plain.body)
        }
    }

    @Test func chartJSComesFromTheInstalledPackage() throws {
        let installed = URL(fileURLWithPath: "/usr/share/javascript/chart.js/chart.min.js")
        try Self.withConsole { service in
            let chart = try service.request("GET", "/console/vendor/chart.min.js")
            if FileManager.default.fileExists(atPath: installed.path) {
                #expect(chart.status == 200)
                #expect(chart.body == [UInt8](try Data(contentsOf: installed)))
            } else {
                #expect(chart.status == 404)
            }
        }
        #expect(
            !FileManager.default.fileExists(atPath: consoleDirectory.appendingPathComponent("vendor").path),
            "Chart.js is not copied into the repository")
    }

    /// On a link domain `/console/...` is a link: the click handler answers (here with the domain's web fallback).
    @Test func onALinkDomainTheConsolePathIsAClick() throws {
        try Self.withConsole { service in
            _ = try Fixture(service)
            let click = try service.request("GET", "/console/", headers: [("Host", "links.example.com")])
            #expect(click.status == 302)
            #expect(click.headers["Location"] == "https://www.example.com/console/")
            #expect(click.headers["Content-Security-Policy"] == nil)
            #expect(try service.request("GET", "/console/", headers: [("Host", "127.0.0.1")]).status == 200)
        }
    }

    /// Issue 46, item 7: the console built into linkd is the checkout's `console/`, byte for byte, and a client sees
    /// each file as the folder serves it: same bytes, Content-Type, ETags (plain and gzip), caching headers.
    @Test func theBuiltInConsoleIsTheFolderServedTheSameWay() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: consoleDirectory.path).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: consoleDirectory.appendingPathComponent(path).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue && !(path as NSString).lastPathComponent.hasPrefix(".")
        }.sorted()
        #expect(EmbeddedFolder.console.files.map(\.path) == files)
        for file in EmbeddedFolder.console.files {
            #expect(
                file.bytes == [UInt8](try Data(contentsOf: consoleDirectory.appendingPathComponent(file.path))),
                "\(file.path): edited in place since the build? touch its folder and build again (docs/DESIGN.md, \"The house\", on Plugins/)"
            )
        }
        let served = { (service: TestService, path: String, encoding: String?) throws -> [String] in
            let answer = try service.request("GET", "/console/" + path, headers: encoding.map { [("Accept-Encoding", $0)] } ?? [])
            return ["\(answer.status)", "\(answer.body)"]
                + [
                    "Content-Type", "Content-Encoding", "ETag", "Last-Modified", "Cache-Control", "Vary",
                    "Content-Security-Policy",
                ].map { answer.headers[$0] ?? "-" }
        }
        try TestService.with(configure: { $0.console = .builtIn }) { builtIn throws in
            try Self.withConsole { folder throws in
                for path in files + [""] {
                    for encoding in [nil, "gzip"] {
                        let (fromBinary, fromFolder) = (try served(builtIn, path, encoding), try served(folder, path, encoding))
                        #expect(fromBinary == fromFolder, "\(path) \(encoding ?? "")")
                    }
                }
            }
        }
    }

    @Test func withoutAConsoleFolderThereIsNoConsole() throws {
        try TestService.with { service throws in
            #expect(try service.request("GET", "/console/").status == 404)
        }
    }

    /// What a browser loads for any one view stays under 90 KB uncompressed (docs/CONSOLE.md): the shell (index.html,
    /// its stylesheet and icon, app.js and what it imports statically) with the view's module and its static imports,
    /// and each part the view loads on demand (a link's form or its analytics tab, one at a time: they are its two
    /// tabs). The router loads each view with `import()`, so a view's weight is not paid by the others; Chart.js,
    /// Debian's, is loaded by the analytics views only.
    @Test func whatAViewLoadsStaysWithinItsBudget() throws {
        let shell = try Self.staticClosure(of: ["app.js"]).union(["index.html", "console.css", "icon.svg"])
        #expect(shell.allSatisfy { !$0.hasPrefix("views/") }, "the shell imports no view statically: \(shell.sorted())")
        let views = try Self.imports(of: "app.js", dynamic: true)
        #expect(views.count >= 16 && views.allSatisfy { $0.hasPrefix("views/") }, "the router's views: \(views)")
        var largest = (view: "", bytes: 0)
        for view in views {
            let own = try shell.union(Self.staticClosure(of: [view]))
            let onDemand = try own.filter { $0.hasPrefix("views/") }.flatMap { try Self.imports(of: $0, dynamic: true) }
            for part in onDemand.isEmpty ? [nil] : onDemand.map(Optional.some) {
                let loaded = try own.union(Self.staticClosure(of: part.map { [$0] } ?? []))
                let bytes = try loaded.reduce(0) { $0 + (try Data(contentsOf: consoleDirectory.appendingPathComponent($1))).count }
                if bytes > largest.bytes { largest = (view + (part.map { " with " + $0 } ?? ""), bytes) }
            }
        }
        let shellBytes = try shell.reduce(0) { $0 + (try Data(contentsOf: consoleDirectory.appendingPathComponent($1))).count }
        #expect(shellBytes > 10_000 && shellBytes < 44_000, "the shell loads \(shellBytes) bytes")
        #expect(largest.bytes < 90_000, "\(largest.view) loads \(largest.bytes) bytes with the shell")
    }

    /// The files `entries` import, directly or not, with static `import` statements, `entries` included.
    static func staticClosure(of entries: [String]) throws -> Set<String> {
        var seen = Set<String>()
        var pending = entries
        while let file = pending.popLast() {
            guard seen.insert(file).inserted else { continue }
            pending += try imports(of: file, dynamic: false)
        }
        return seen
    }

    /// The console files `file` imports: its `import … from '…'` and `import '…'` statements, or with `dynamic` its
    /// `import('…')` calls; paths relative to `console/`.
    static func imports(of file: String, dynamic: Bool) throws -> [String] {
        let text = try String(contentsOf: consoleDirectory.appendingPathComponent(file), encoding: .utf8)
        let pattern = dynamic ? #"\bimport\(\s*['"](\.[^'"]+)['"]\s*\)"# : #"^import\s+(?:[^;'"]*?\bfrom\s+)?['"](\.[^'"]+)['"]"#
        let expression = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        let folder = URL(fileURLWithPath: "/" + file).deletingLastPathComponent()
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            let relative = String(text[Range(match.range(at: 1), in: text)!])
            return String(folder.appendingPathComponent(relative).standardizedFileURL.path.dropFirst())
        }
    }

    @Test func gzipRoundTrips() throws {
        let text = Array(String(repeating: "linkd console ", count: 500).utf8)
        let compressed = try #require(Gzip.compress(text))
        #expect(compressed.count < text.count / 10)
        #expect(Array(compressed.prefix(2)) == [0x1f, 0x8b], "a gzip member")
        #expect(try Self.gunzip(compressed) == text)
        #expect(try Self.gunzip(#require(Gzip.compress([]))) == [])
    }

    /// Decompresses with the gzip tool, not with the code under test.
    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("console-\(UUID().uuidString).gz")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("gzip -dc failed") }
        return [UInt8](data)
    }
}
