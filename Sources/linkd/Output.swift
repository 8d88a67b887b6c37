import Foundation

/// Writes to stdout (results) and stderr (diagnostics), one whole string per call.
enum Output {
    static func out(_ text: String) { write(text, to: FileHandle.standardOutput) }
    static func err(_ text: String) { write(text, to: FileHandle.standardError) }

    private static func write(_ text: String, to handle: FileHandle) {
        let line = text.hasSuffix("\n") ? text : text + "\n"
        handle.write(Data(line.utf8))
    }
}
