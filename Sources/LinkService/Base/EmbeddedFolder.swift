import Foundation

/// A folder of the source tree carried inside the binary, so linkd serves its console and applies its migrations
/// wherever it is copied: `EmbeddedFolder.console` and `.migrations` are generated at build time by the
/// EmbedFiles plugin (docs/DESIGN.md), each file with its path under the folder, its modification time and its
/// exact bytes.
struct EmbeddedFolder: Sendable {
    struct File: Sendable {
        /// Under the folder, `/`-separated: `views/links.js`.
        let path: String
        let modified: Date
        let bytes: [UInt8]
    }

    /// `console`, `migrations`.
    let name: String
    /// Sorted by path.
    let files: [File]

    /// The generated form: each file's path, modification time in seconds since 1970 and bytes in base64.
    init(_ name: String, _ entries: [(String, Int, String)]) {
        self.name = name
        files = entries.map { path, seconds, base64 in
            File(
                path: path, modified: Date(timeIntervalSince1970: TimeInterval(seconds)),
                bytes: [UInt8](Data(base64Encoded: base64) ?? Data()))
        }
    }
}
