import Foundation
import Testing
import TestSupport

/// The EmbedFiles plugin's tool (`Plugins/EmbedText`), built beside `linkd`: a folder it embeds comes out byte for
/// byte, text or not (an image, a font), so the console may hold any file (issue 46, item 7).
@Suite("EmbedText")
struct EmbedTextTests {
    @Test func aFolderIsEmbeddedByteForByteWhateverItHolds() throws {
        let tool = LinkdProcess.executable.deletingLastPathComponent().appendingPathComponent("EmbedText-tool")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "\(tool.path) is built with linkd")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("embed-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("fonts"), withIntermediateDirectories: true)
        let files: [String: [UInt8]] = [
            "index.html": Array("<!doctype html>\r\n<p>\"é\" \\ \u{0}</p>\n\n".utf8),
            "fonts/inter.woff2": [0x77, 0x4F, 0x46, 0x32, 0x00, 0xFF, 0xFE, 0x80, 0xC0, 0x0A, 0x0D, 0x22, 0x5C],
            "image.png": (0..<256).map { UInt8($0) },
            "empty.txt": [],
        ]
        for (path, bytes) in files { try Data(bytes).write(to: root.appendingPathComponent(path)) }
        try Data("hidden".utf8).write(to: root.appendingPathComponent(".DS_Store"))
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("Embedded_console-\(UUID()).swift")
        defer { try? FileManager.default.removeItem(at: output) }

        let process = try Subprocess(tool.path, ["--folder", "console", root.path, output.path])
        #expect(try process.wait() == 0, "\(process.standardError)")
        let source = try String(contentsOf: output, encoding: .utf8)
        #expect(source.contains("static let console = EmbeddedFolder(\"console\", ["))
        // Each entry is one line: ("path", seconds, "base64").
        var embedded: [String: [UInt8]] = [:]
        for line in source.split(separator: "\n") where line.hasPrefix("        (\"") {
            let fields = line.split(separator: "\"")
            embedded[String(fields[1])] = [UInt8](try #require(Data(base64Encoded: String(fields.count > 4 ? fields[3] : ""))))
        }
        #expect(embedded == files, "every file but the hidden one, exactly")
    }
}
