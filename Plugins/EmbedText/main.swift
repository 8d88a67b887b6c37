import Foundation

// Run by the EmbedFiles plugin; writes OUTPUT, Swift source:
// - `EmbedText OUTPUT FILE...`: for each FILE, `enum <its name without extension> { static let text }` with the
//   file's text, less its last newline;
// - `EmbedText --folder NAME ROOT OUTPUT`: `extension EmbeddedFolder { static let NAME }` holding each regular file
//   under ROOT (sub-folders included, hidden ones left out) as its path under ROOT, its modification time in whole
//   seconds and its exact bytes in base64, so any file (an image, a font) comes out as it went in.

/// `text` as a Swift string literal, on one line.
func literal(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        if scalar == "\\" || scalar == "\"" {
            out += "\\" + String(scalar)
        } else if scalar.value < 0x20 || scalar.value == 0x7F {
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("EmbedText: \(message)\n".utf8))
    exit(status)
}

func contents(_ path: String) -> Data {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    return data
}

/// The runtimes: one enum of text a file.
func texts(_ paths: ArraySlice<String>) -> String {
    var source = ""
    for path in paths {
        let url = URL(fileURLWithPath: path)
        guard var text = String(data: contents(path), encoding: .utf8) else { fail("cannot read \(path) as UTF-8") }
        if text.hasSuffix("\n") { text.removeLast() }
        source += "\nenum \(url.deletingPathExtension().lastPathComponent) {\n    static let text = \(literal(text))\n}\n"
    }
    return source
}

/// A folder: every file's path under `root`, modification time and bytes, sorted by path.
func folder(_ name: String, root: String) -> String {
    let rootURL = URL(fileURLWithPath: root)
    guard
        let walker = FileManager.default.enumerator(
            at: rootURL, includingPropertiesForKeys: [.isRegularFileKey, .contentModificationDateKey],
            options: [.skipsHiddenFiles])
    else { fail("cannot list \(root)") }
    let prefix = rootURL.standardizedFileURL.resolvingSymlinksInPath().path + "/"
    var files: [(path: String, url: URL, modified: Date)] = []
    for case let url as URL in walker {
        guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .contentModificationDateKey]) else {
            fail("cannot read \(url.path)")
        }
        guard values.isRegularFile == true else { continue }
        let full = url.standardizedFileURL.resolvingSymlinksInPath().path
        guard full.hasPrefix(prefix) else { fail("\(full) is not under \(root)") }
        files.append((String(full.dropFirst(prefix.count)), url, values.contentModificationDate ?? Date(timeIntervalSince1970: 0)))
    }
    var source = "\nextension EmbeddedFolder {\n    /// The \(name)/ folder of the source tree linkd was built from.\n"
    source += "    static let \(name) = EmbeddedFolder(\(literal(name)), [\n"
    for file in files.sorted(by: { $0.path < $1.path }) {
        let seconds = Int(file.modified.timeIntervalSince1970.rounded(.down))
        source += "        (\(literal(file.path)), \(seconds), \(literal(contents(file.url.path).base64EncodedString()))),\n"
    }
    return source + "    ])\n}\n"
}

let arguments = CommandLine.arguments.dropFirst()
var source = "// Generated at build time by the EmbedFiles plugin: do not edit.\n"
let output: String
if arguments.first == "--folder" {
    guard arguments.count == 4 else { fail("usage: EmbedText --folder NAME ROOT OUTPUT", status: 2) }
    let values = Array(arguments.dropFirst())
    output = values[2]
    source += folder(values[0], root: values[1])
} else {
    guard let first = arguments.first else { fail("usage: EmbedText OUTPUT FILE...", status: 2) }
    output = first
    source += texts(arguments.dropFirst())
}
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    fail("cannot write \(output): \(error)")
}
