import Foundation

/// One numbered SQL file from `migrations/`: `0001_initial.sql` is version 1, named `initial`.
///
/// Files are plain SQL and never edited once merged; the checksum of the text is recorded when the
/// file is applied, and a later mismatch is refused (see `Migrator`).
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String
    /// SHA-256 of the file's bytes, lower-case hex.
    public let checksum: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = SHA256.hex(sql)
    }

    /// Loads every `NNNN_name.sql` file of `directory`, sorted by version.
    /// - Throws: `MigrationError.invalidDirectory` when it can't be read, `.invalidFileName` for a `.sql` file
    ///   not named `NNNN_name.sql`, `.duplicateVersion` when two files share a number.
    public static func load(from directory: URL) throws(MigrationError) -> [Migration] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .invalidDirectory(directory.path)
        }
        var migrations: [Migration] = []
        for file in names.sorted() where file.hasSuffix(".sql") {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"),
                  let version = Int(stem[..<underscore]), version > 0,
                  stem[..<underscore].allSatisfy(\.isASCII)
            else { throw .invalidFileName(file) }
            guard let sql = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) else {
                throw .invalidDirectory(directory.appendingPathComponent(file).path)
            }
            if migrations.contains(where: { $0.version == version }) { throw .duplicateVersion(version) }
            migrations.append(Migration(version: version, name: String(stem[stem.index(after: underscore)...]), sql: sql))
        }
        return migrations.sorted { $0.version < $1.version }
    }

    /// Where the SQL files are when none is configured: beside the source tree the binary was built from
    /// (`.build/<config>/linkd` → `migrations/`), the working directory, then `/usr/share/linkd/migrations`.
    public static func defaultDirectory(executablePath: String = CommandLine.arguments.first ?? "") -> URL? {
        InstalledDirectory.find("migrations", executablePath: executablePath) { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
    }
}
