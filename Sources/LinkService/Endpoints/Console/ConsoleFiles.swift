import Foundation

/// The console's static files (docs/CONSOLE.md), in memory from start, keyed by their path under `/console/`:
/// the `console/` built into linkd (`EmbeddedFolder.console`) or a folder given instead, read once. Chart.js is
/// read from where Debian's `libjs-chart.js` installs it (the UMD build, which defines `window.Chart`) and served
/// as `vendor/chart.min.js`. Nothing is looked up on disk per request, so no request path can reach a file outside
/// this set.
struct ConsoleFiles: Sendable {
    let files: [String: ConsoleFile]

    static let chartPath = "vendor/chart.min.js"

    /// The console built into linkd.
    init(builtIn folder: EmbeddedFolder, chartJS: URL?) throws {
        try self.init(folder.files.map { ($0.path, $0.bytes, $0.modified) }, root: "the built-in console", chartJS: chartJS)
    }

    /// Reads every file of a served kind under `directory` (sub-folders included).
    /// - Throws: `ConsoleFiles.Missing` when `directory` cannot be listed or has no `index.html`.
    init(directory: URL, chartJS: URL?) throws {
        let root = directory.standardizedFileURL.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: root) else { throw Missing(folder: root) }
        var files: [(String, [UInt8], Date)] = []
        while let relative = walker.nextObject() as? String {
            let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
            guard ConsoleFile.contentTypes[url.pathExtension.lowercased()] != nil else { continue }
            let modified = (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? Date()
            files.append((relative, [UInt8](try Data(contentsOf: url)), modified))
        }
        try self.init(files, root: root, chartJS: chartJS)
    }

    /// Serves each file of a served kind, by its path under the console, and `chartJS` when it exists.
    private init(_ found: [(path: String, bytes: [UInt8], modified: Date)], root: String, chartJS: URL?) throws {
        var files: [String: ConsoleFile] = [:]
        for (path, bytes, modified) in found {
            guard let type = ConsoleFile.contentTypes[(path as NSString).pathExtension.lowercased()] else { continue }
            files[path] = ConsoleFile(bytes: bytes, contentType: type, modified: modified)
        }
        guard files["index.html"] != nil else { throw Missing(folder: root) }
        if let chartJS, FileManager.default.isReadableFile(atPath: chartJS.path) {
            let modified = (try? chartJS.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? Date()
            files[Self.chartPath] = ConsoleFile(
                bytes: [UInt8](try Data(contentsOf: chartJS)), contentType: ConsoleFile.contentTypes["js"]!,
                modified: modified)
        }
        self.files = files
    }

    /// A console folder without an `index.html` (or none at all).
    struct Missing: Error, CustomStringConvertible {
        let folder: String
        var description: String { "\(folder) holds no index.html" }
    }
}
