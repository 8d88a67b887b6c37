/// Why migrations could not be loaded or applied.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidDirectory(String)
    case invalidFileName(String)
    case duplicateVersion(Int)
    /// An applied file's text changed since it was applied: migrations are never edited once merged.
    case checksumMismatch(version: Int, name: String)
    /// The database has a migration this build does not know: a newer linkd ran against it.
    case unknownAppliedVersion(Int)

    public var description: String {
        switch self {
        case .invalidDirectory(let path): "cannot read migrations at \(path)"
        case .invalidFileName(let name): "migration file '\(name)' is not named NNNN_name.sql"
        case .duplicateVersion(let version): "two migration files have version \(version)"
        case .checksumMismatch(let version, let name):
            "migration \(version) (\(name)) was changed after it was applied; applied migrations must never be edited"
        case .unknownAppliedVersion(let version):
            "the database has migration \(version), which this linkd does not know (was it migrated by a newer version?)"
        }
    }
}
