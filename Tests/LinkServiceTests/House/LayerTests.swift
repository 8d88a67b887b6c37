import Foundation
import Testing

/// LinkService's folders are layers (docs/DESIGN.md, "Inside LinkService"): a file names only types declared in
/// its own folder or in folders listed before it in that table. The compiler cannot check this inside one module,
/// so this test reads the sources: it finds every type a folder declares, then every capitalised name a file
/// uses outside comments and string literals.
@Suite("House: LinkService's layers")
struct LayerTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let sources = root.appendingPathComponent("Sources/LinkService")

    /// The folders in the order of DESIGN.md's table: rows whose first cell is a folder in backticks (`Base/`).
    static func layers() throws -> [String] {
        let design = try String(contentsOf: root.appendingPathComponent("docs/DESIGN.md"), encoding: .utf8)
        guard let section = design.range(of: "## Inside LinkService") else { return [] }
        return design[section.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("## ") }.compactMap { line in
            guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
            let cell = line[line.index(line.startIndex, offsetBy: 3)..<end]
            return cell.hasSuffix("/") ? String(cell.dropLast()) : nil
        }
    }

    /// Every Swift file under Sources/LinkService: its folder (first path component) and its text.
    static func files() throws -> [(path: String, folder: String, text: String)] {
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        var files: [(String, String, String)] = []
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            files.append((path, String(path.split(separator: "/").first ?? ""), text))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// `text` without comments and string literals (what is left is code).
    static func code(_ text: String) -> String {
        var text = text
        for pattern in [#"\"\"\"[\s\S]*?\"\"\""#, #"/\*[\s\S]*?\*/"#, #"//[^\n]*"#, #""(?:[^"\\\n]|\\.)*""#] {
            text = text.replacingOccurrences(of: pattern, with: " ", options: .regularExpression)
        }
        return text
    }

    static func matches(_ pattern: String, in text: String, group: Int) -> [String] {
        let expression = try! NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    @Test func everyFolderIsALayerOfTheTable() throws {
        let layers = try Self.layers()
        #expect(layers.count >= 8, "DESIGN.md's table lists the folders: \(layers)")
        #expect(Set(layers).count == layers.count, "a folder listed twice: \(layers)")
        let folders = Set(try Self.files().map(\.folder))
        #expect(folders.subtracting(layers).isEmpty, "folders missing from DESIGN.md's table: \(folders.subtracting(layers).sorted())")
        #expect(
            Set(layers).subtracting(folders).isEmpty, "folders in the table that do not exist: \(Set(layers).subtracting(folders).sorted())"
        )
    }

    /// Each use in `files` of a type declared in a folder after the file's own in `layers`, as "path names Type of
    /// Folder/". Top-level declarations (in column 0) give a type its folder, so nested types named alike do not count.
    static func upward(in files: [(path: String, folder: String, text: String)], layers: [String]) -> [String] {
        var owner: [String: String] = [:]
        for file in files {
            let declaration =
                #"^(?:(?:public|internal|private|fileprivate|package|final|indirect)\s+)*(?:struct|class|enum|protocol|typealias|actor)\s+([A-Z]\w*)"#
            for name in Self.matches(declaration, in: Self.code(file.text), group: 1) where owner[name] == nil {
                owner[name] = file.folder
            }
        }
        var upward: [String] = []
        for file in files {
            guard let level = layers.firstIndex(of: file.folder) else { continue }
            for name in Set(Self.matches(#"\b([A-Z]\w*)\b"#, in: Self.code(file.text), group: 1)).sorted() {
                guard let folder = owner[name], let other = layers.firstIndex(of: folder), other > level else { continue }
                upward.append("\(file.path) names \(name) of \(folder)/")
            }
        }
        return upward
    }

    @Test func noFileNamesATypeOfAHigherLayer() throws {
        let layers = try Self.layers()
        let files = try Self.files()
        #expect(Set(files.map(\.folder)).count >= 8, "the scan finds LinkService's folders")
        let upward = Self.upward(in: files, layers: layers)
        #expect(upward.isEmpty, "lower layers must not name higher ones (docs/DESIGN.md):\n\(upward.joined(separator: "\n"))")
    }

    /// A service that another wakes (the webhook delivery, after a write queued events) is woken through a type the
    /// scan above sees (`WebhookOutboxBell`, of the outbox's folder, which both name), never through a closure that
    /// `Application` hands a lower folder: that tie would point up, unseen.
    @Test func wakeUpsAreNotClosuresHandedOver() throws {
        let wiring = try Self.files().filter { $0.folder == "Application" }
        let closures = wiring.flatMap { Self.matches(#"\{[^{}]*\.(?:wake|ring)\(\)[^{}]*\}"#, in: Self.code($0.text), group: 0) }
        #expect(closures.isEmpty, "wake-ups wired as closures in Application/: \(closures)")
    }

    /// The check itself: a lower folder naming a higher one's type (in code, an extension or a generic argument) is
    /// found; the same name in a comment or a string literal, or a higher folder naming a lower one's type, is not.
    @Test func theCheckFindsAnUpwardName() {
        let layers = ["Stores", "Catalog", "Endpoints"]
        let files: [(path: String, folder: String, text: String)] = [
            ("Stores/Row.swift", "Stores", "struct Row {\n    // CatalogEntry in a comment\n    let note = \"Handlers\"\n}\n"),
            ("Stores/Row+Entry.swift", "Stores", "extension Row {\n    var entries: [CatalogEntry] { [] }\n}\n"),
            ("Catalog/CatalogEntry.swift", "Catalog", "final class CatalogEntry {\n    let row: Row? = nil\n}\n"),
            ("Catalog/Loader.swift", "Catalog", "enum Loader {\n    static func load() -> Handlers? { nil }\n}\n"),
            ("Endpoints/Handlers.swift", "Endpoints", "struct Handlers {\n    let entry: CatalogEntry\n    let row: Row\n}\n"),
        ]
        #expect(
            Self.upward(in: files, layers: layers) == [
                "Stores/Row+Entry.swift names CatalogEntry of Catalog/",
                "Catalog/Loader.swift names Handlers of Endpoints/",
            ])
    }
}
