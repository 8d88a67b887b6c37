import Foundation

// `EmbedText OUTPUT FILE...`: writes OUTPUT, Swift source declaring for each FILE `enum <its name without
// extension> { static let text }` with the file's text, less its last newline. Run by the EmbedRuntimes plugin.

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

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: EmbedText OUTPUT FILE...\n".utf8))
    exit(2)
}
var source = "// Generated at build time by the EmbedRuntimes plugin: do not edit.\n"
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    guard let data = FileManager.default.contents(atPath: path), var text = String(data: data, encoding: .utf8) else {
        FileHandle.standardError.write(Data("EmbedText: cannot read \(path) as UTF-8\n".utf8))
        exit(1)
    }
    if text.hasSuffix("\n") { text.removeLast() }
    source += "\nenum \(url.deletingPathExtension().lastPathComponent) {\n    static let text = \(literal(text))\n}\n"
}
do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    FileHandle.standardError.write(Data("EmbedText: cannot write \(output): \(error)\n".utf8))
    exit(1)
}
