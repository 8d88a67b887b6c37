import Foundation
import LinkKit
import Postgres
import Synchronization

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
        // Rules are read and compiled a batch of domains at a time: only one batch's rows and decoded rules
        // are alive at once (reading every rule first held ~1 GB for 10,000 domains x 100 rules), and each
        // batch is compiled on all cores while the connection is idle.
        let (appsOf, updated) = (appsByWorkspace, appUpdated)
        var entries: [CatalogEntry] = []
        entries.reserveCapacity(domains.count)
        var start = domains.startIndex
        while start < domains.endIndex {
            let batch = Array(domains[start..<min(start + batchSize, domains.endIndex)])
            start += batch.count
            let rules = try StoredRule.byDomain(batch.map(\.id), on: connection)
            let compiled = Mutex<[CatalogEntry?]>(Array(repeating: nil, count: batch.count))
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in
                let entry = Self.entry(batch[index], rules: rules[batch[index].id] ?? [], apps: appsOf, appUpdated: updated)
                compiled.withLock { $0[index] = entry }
            }
            entries += compiled.withLock { $0 }.compactMap { $0 }
        }
        return entries
    }

    /// Domains read and compiled per batch.
    static let batchSize = 250

    private static func entry(_ domain: Domain, rules domainRules: [StoredRule], apps appsByWorkspace: [UUID: [DomainApp]],
                              appUpdated: [UUID: Date]) -> CatalogEntry {
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
