import Foundation
import LinkKit
import Postgres

extension AssociationVersionStore {
    /// Every kept version of `domain`, oldest first, without files: what the health checks match fetched bytes to.
    static func all(domain: UUID, on connection: Connection) throws -> [AssociationVersion] {
        try connection.query("SELECT \(unescaped: columns) FROM association_versions WHERE domain_id = \(domain) ORDER BY n")
            .map(AssociationVersion.init(row:))
    }

    /// The `assetlinks.json` bytes of every kept version of `domain`, by number: what Google's view is compared
    /// with when it is not the current file.
    static func assetLinks(domain: UUID, on connection: Connection) throws -> [(number: Int, bytes: [UInt8])] {
        try connection.query("SELECT n, assetlinks FROM association_versions WHERE domain_id = \(domain) ORDER BY n")
            .map { row in try row.decode((Int, [UInt8]).self) }
    }
}
