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
        return try load(
            names.sorted().filter { $0.hasSuffix(".sql") }.map { name throws(MigrationError) in
                let file = directory.appendingPathComponent(name)
                guard let data = FileManager.default.contents(atPath: file.path) else { throw .invalidDirectory(file.path) }
                return (name, [UInt8](data), file.path)
            })
    }

    /// The `migrations/` folder built into linkd (`EmbeddedFolder`): the same files, so the same checksums, as
    /// the source tree's.
    public static func builtIn() throws(MigrationError) -> [Migration] {
        try load(
            EmbeddedFolder.migrations.files.filter { !$0.path.contains("/") && $0.path.hasSuffix(".sql") }.map {
                ($0.path, $0.bytes, "migrations/" + $0.path)
            })
    }

    /// The migrations of `files` (name, bytes, where they come from, for errors), one way for both sources.
    private static func load(_ files: [(name: String, bytes: [UInt8], origin: String)]) throws(MigrationError) -> [Migration] {
        var migrations: [Migration] = []
        for (file, bytes, origin) in files {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"),
                let version = Int(stem[..<underscore]), version > 0,
                stem[..<underscore].allSatisfy(\.isASCII)
            else { throw .invalidFileName(file) }
            guard let sql = String(bytes: bytes, encoding: .utf8) else { throw .invalidDirectory(origin) }
            if migrations.contains(where: { $0.version == version }) { throw .duplicateVersion(version) }
            migrations.append(Migration(version: version, name: String(stem[stem.index(after: underscore)...]), sql: sql))
        }
        return migrations.sorted { $0.version < $1.version }
    }
}
