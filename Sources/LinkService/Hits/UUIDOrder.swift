import Foundation

/// The order PostgreSQL's `uuid` type sorts in, for sorting keys the way the database does (`UUID` text itself
/// is formatted and parsed by the Postgres module: `canonicalText`, `UUID.canonical`).
enum UUIDOrder {
    /// Byte-wise `<`, the order PostgreSQL's `uuid` type sorts in.
    static func less(_ a: UUID, _ b: UUID) -> Bool {
        withUnsafeBytes(of: a.uuid) { x in
            withUnsafeBytes(of: b.uuid) { y in
                for index in 0..<16 where x[index] != y[index] { return x[index] < y[index] }
                return false
            }
        }
    }
}
