import Foundation

/// The console's static files (`console/` in the repository: docs/CONSOLE.md), read into memory once at start,
/// keyed by their path under `/console/`; Chart.js is read from where Debian's `libjs-chart.js` installs it
/// (the UMD build, which defines `window.Chart`) and served as `vendor/chart.min.js`. Nothing is looked up on disk per request, so no request path can
/// reach a file outside this set.
struct ConsoleFiles: Sendable {
    let files: [String: ConsoleFile]

    static let chartPath = "vendor/chart.min.js"

    /// Reads every file of a served kind under `directory` (sub-folders included) and `chartJS` when it exists.
    /// - Throws: when `directory` cannot be listed or has no `index.html`.
    init(directory: URL, chartJS: URL?) throws {
        var files: [String: ConsoleFile] = [:]
        let root = directory.standardizedFileURL.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root])
        }
        while let relative = walker.nextObject() as? String {
            let url = URL(fileURLWithPath: root).appendingPathComponent(relative)
            guard let type = ConsoleFile.contentTypes[url.pathExtension.lowercased()] else { continue }
            files[relative] = try Self.read(url, contentType: type)
        }
        guard files["index.html"] != nil else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root + "/index.html"])
        }
        if let chartJS, FileManager.default.isReadableFile(atPath: chartJS.path) {
            files[Self.chartPath] = try Self.read(chartJS, contentType: ConsoleFile.contentTypes["js"]!)
        }
        self.files = files
    }

    private static func read(_ url: URL, contentType: String) throws -> ConsoleFile {
        let bytes = [UInt8](try Data(contentsOf: url))
        let modified = (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? Date()
        return ConsoleFile(bytes: bytes, contentType: contentType, modified: modified)
    }
}
