import Foundation
import LinkKit
import Postgres

/// Reads the apps a domain's association files and resolve are compiled with (with their destination types).
enum DomainLoader {
    /// The apps among `ids` that exist in `workspace`, with their destination types.
    static func apps(_ ids: [UUID], workspace: UUID, on connection: Connection) throws -> [DomainApp] {
        guard !ids.isEmpty else { return [] }
        let idTexts = ids.map { $0.canonicalText }
        let apps = try AppStore.all(idTexts, workspace: workspace, on: connection)
        let destinations = try DestinationStore.all(ofApps: idTexts, on: connection)
        let byApp = Dictionary(grouping: destinations, by: \.appID)
        return apps.map { domainApp($0, destinations: byApp[$0.id] ?? []) }
    }

    /// Every app of `workspace`, as a catalog load compiles its domains with.
    struct WorkspaceApps {
        let apps: [DomainApp]
        /// When each app or one of its destinations last changed (what a domain's Last-Modified follows).
        let updated: [UUID: Date]
    }

    /// Every app of `workspace` with its destination types, in the two queries `apps(_:workspace:on:)` makes.
    static func workspaceApps(_ workspace: UUID, on connection: Connection) throws -> WorkspaceApps {
        let apps = try AppStore.all(workspace: workspace, on: connection)
        let destinations = try DestinationStore.all(workspace: workspace, on: connection)
        let byApp = Dictionary(grouping: destinations, by: \.appID)
        return WorkspaceApps(
            apps: apps.map { domainApp($0, destinations: byApp[$0.id] ?? []) },
            updated: Dictionary(apps.map { ($0.id, updated($0, destinations: byApp[$0.id] ?? [])) }, uniquingKeysWith: max)
        )
    }

    /// When `app` or one of its destinations last changed.
    static func updated(_ app: App, destinations: [Destination]) -> Date {
        destinations.map(\.updatedAt).reduce(app.updatedAt, max)
    }

    /// An app as the compiled domain sees it.
    static func domainApp(_ app: App, destinations: [Destination]) -> DomainApp {
        DomainApp(
            id: app.id.canonicalText,
            platform: app.platform,
            identifier: app.platformIdentifier,
            fingerprints: app.fingerprints.map(\.value),
            destinations: destinations.map(\.type),
            storeURL: app.storeURL,
            titles: Dictionary(
                destinations.compactMap { destination in destination.title.map { (destination.name, $0) } },
                uniquingKeysWith: { first, _ in first }),
            previews: Dictionary(
                destinations.compactMap { destination in
                    destination.preview.isEmpty ? nil : (destination.name, destination.preview)
                }, uniquingKeysWith: { first, _ in first }),
            customScheme: app.customScheme,
            primaryDomainID: app.primaryDomainID?.canonicalText,
            name: app.name,
            iconURL: app.iconURL
        )
    }
}

extension App {
    /// The store page for the no-app fallback.
    var storeURL: String? {
        switch platform {
        case .ios: appStoreID.map { "https://apps.apple.com/app/id\($0)" }
        case .android: playStoreURL ?? packageName.map { "https://play.google.com/store/apps/details?id=\($0)" }
        }
    }
}
