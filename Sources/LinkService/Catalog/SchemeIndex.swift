import Foundation
import LinkKit

/// Which app owns each custom scheme of a workspace, and which of its link domains its custom-scheme links
/// follow: the app's `primaryDomain` when that domain's rules name the app, else the oldest domain whose rules
/// name it (docs/LINKS.md). Derived from the catalog's entries (each entry's apps are its workspace's, as the
/// rules that name them were compiled), so it is exactly as current as they are.
struct SchemeIndex: Sendable {
    /// The app that registered a scheme and the domain that decides its links.
    struct Owner: Sendable {
        let app: DomainApp
        let entry: CatalogEntry
    }

    private var owners: [Key: Owner] = [:]
    /// The workspaces owning each scheme, for resolve without a workspace.
    private var workspaces: [String: Set<UUID>] = [:]

    private struct Key: Hashable {
        let workspace: UUID
        let scheme: String
    }

    init(_ entries: some Sequence<CatalogEntry>) {
        for entry in entries {
            for app in entry.compiled.appsNamedByRules(.ios) {
                guard let scheme = app.customScheme else { continue }
                let key = Key(workspace: entry.workspaceID, scheme: scheme)
                workspaces[scheme, default: []].insert(entry.workspaceID)
                if let current = owners[key], !Self.precedes(Owner(app: app, entry: entry), current) { continue }
                owners[key] = Owner(app: app, entry: entry)
            }
        }
    }

    /// Whether `candidate` decides rather than `current`: two apps of a workspace registering one scheme is the
    /// operator's mistake (iOS picks one of them at random); linkd picks the smaller app id, every time. For one
    /// app: its primary domain, else the oldest domain (then the first hostname).
    private static func precedes(_ candidate: Owner, _ current: Owner) -> Bool {
        if candidate.app.id != current.app.id { return candidate.app.id < current.app.id }
        let primary = candidate.app.primaryDomainID
        let candidateIsPrimary = candidate.entry.domainID.canonicalText == primary
        let currentIsPrimary = current.entry.domainID.canonicalText == primary
        if candidateIsPrimary != currentIsPrimary { return candidateIsPrimary }
        if candidate.entry.createdAt != current.entry.createdAt { return candidate.entry.createdAt < current.entry.createdAt }
        return candidate.entry.hostname < current.entry.hostname
    }

    func owner(of scheme: String, workspace: UUID?) -> Owner? {
        if let workspace { return owners[Key(workspace: workspace, scheme: scheme)] }
        guard let only = workspaces[scheme], only.count == 1 else { return nil }
        return owners[Key(workspace: only.first!, scheme: scheme)]
    }
}
