import Foundation
import LinkKit
import Postgres

/// Builds catalog entries from the database in a handful of bulk queries (not one round trip per domain).
enum CatalogLoader {
    /// Every domain (`hostnames` nil) or the named ones.
    static func load(hostnames: [String]? = nil, on connection: Connection) throws -> [CatalogEntry] {
        let domains: [Domain]
        if let hostnames {
            domains = try connection.query(Query(unsafeSQL: "SELECT \(Domain.columns) FROM domains WHERE hostname = ANY($1::text[])",
                                                 binds: [hostnames])).map(Domain.init(row:))
        } else {
            domains = try connection.query(Query(unsafeSQL: "SELECT \(Domain.columns) FROM domains")).map(Domain.init(row:))
        }
        guard !domains.isEmpty else { return [] }
        let rules = try StoredRule.byDomain(domains.map(\.id), on: connection)
        let workspaces = Array(Set(domains.map { $0.workspaceID.uuidString.lowercased() }))
        let apps = try connection.query(Query(unsafeSQL: "SELECT \(App.columns), workspace_id FROM apps WHERE workspace_id = ANY($1::uuid[])",
                                              binds: [workspaces])).map { row in (try App(row: row), try row.decode(14, as: UUID.self)) }
        let destinations = try connection.query(Query(unsafeSQL: """
            SELECT \(Destination.columns) FROM destinations WHERE workspace_id = ANY($1::uuid[])
            """, binds: [workspaces])).map(Destination.init(row:))
        let destinationsByApp = Dictionary(grouping: destinations, by: \.appID)
        var appsByWorkspace: [UUID: [DomainApp]] = [:]
        var appUpdated: [UUID: Date] = [:]
        for (app, workspace) in apps {
            let own = destinationsByApp[app.id] ?? []
            appsByWorkspace[workspace, default: []].append(DomainLoader.domainApp(app, destinations: own))
            appUpdated[app.id] = ([app.updatedAt] + own.map(\.updatedAt)).max()
        }
        return domains.map { domain in
            let domainRules = rules[domain.id] ?? []
            let compiled = CompiledDomain(
                settings: domain.settings.settings(hostname: domain.hostname),
                apps: appsByWorkspace[domain.workspaceID] ?? [],
                rules: domainRules.map(\.rule)
            )
            // Last-Modified: the latest change to anything the files are made from (same on every node).
            let used = Set(compiled.rules.flatMap(\.apps)).union(domain.settings.webcredentials.map { $0.uuidString.lowercased() })
            let appTimes = appUpdated.filter { used.contains($0.key.uuidString.lowercased()) }.map(\.value)
            let lastModified = ([domain.updatedAt] + domainRules.map(\.updatedAt) + appTimes).max()!
            return CatalogEntry(domain: domain, compiled: compiled, lastModified: lastModified)
        }
    }
}
