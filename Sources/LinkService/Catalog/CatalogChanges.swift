import Foundation
import Postgres

/// Announces which link domains a committed write affects, with `NOTIFY linkd_catalog, '<hostname>'`.
///
/// The notification is sent inside the writing transaction, so PostgreSQL delivers it only if and when
/// that transaction commits; every node `LISTEN`s and rebuilds just those hostnames.
struct CatalogChanges: Sendable {
    static let channel = "linkd_catalog"

    func domainChanged(_ hostname: String, on connection: Connection) throws {
        try connection.notify(Self.channel, payload: hostname)
    }

    /// An app's identity or store links feed every domain whose rules or settings name it.
    func appChanged(_ appID: UUID, on connection: Connection) throws {
        let hosts = try connection.query("""
            SELECT DISTINCT d.hostname FROM rule_apps ra JOIN rules r ON r.id = ra.rule_id JOIN domains d ON d.id = r.domain_id
            WHERE ra.app_id = \(appID)
            UNION
            SELECT hostname FROM domains
            WHERE settings -> 'webcredentials' ? \(appID.canonicalText) OR settings -> 'appclips' ? \(appID.canonicalText)
            """).map { try $0.decode(0, as: String.self) }
        for host in hosts { try domainChanged(host, on: connection) }
    }
}
