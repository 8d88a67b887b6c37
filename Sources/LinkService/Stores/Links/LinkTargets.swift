import Foundation
import LinkKit
import Postgres

/// What the links of one workspace may point at, read once for a bulk create or an import so that each item is
/// checked in memory: the workspace's domains by hostname, its apps, and each app's destination types.
struct LinkTargets {
    let domains: [String: Domain]
    let apps: Set<UUID>
    /// Each app's platform.
    let platforms: [UUID: AppPlatform]
    /// Each app's destination types, by name.
    let destinations: [UUID: [String: DestinationType]]

    /// The workspace's domains, apps and destination types, in three queries.
    static func load(workspace: UUID, on connection: Connection) throws -> LinkTargets {
        let domains = try DomainStore.all(workspace: workspace, on: connection)
        let apps = try AppStore.all(workspace: workspace, on: connection)
        var destinations: [UUID: [String: DestinationType]] = [:]
        for destination in try DestinationStore.all(workspace: workspace, on: connection) {
            destinations[destination.appID, default: [:]][destination.name] = destination.type
        }
        return LinkTargets(
            domains: Dictionary(domains.map { ($0.hostname, $0) }, uniquingKeysWith: { first, _ in first }),
            apps: Set(apps.map(\.id)), platforms: Dictionary(apps.map { ($0.id, $0.platform) }, uniquingKeysWith: { first, _ in first }),
            destinations: destinations)
    }
}
