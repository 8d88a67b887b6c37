import Foundation
import LinkKit

/// Which link domain decides for each app, and which app owns each custom scheme of a workspace: an app's
/// custom-scheme links follow, and its links are built on, its `primaryDomain` when that domain's rules name
/// the app, else the oldest domain whose rules name it (docs/LINKS.md). Derived from the catalog's entries
/// (an entry carries its workspace's apps as the rules that name them were compiled), so it is exactly as
/// current as they are.
struct AppDomains: Sendable {
    /// An app and the domain that decides for it.
    struct Owner: Sendable {
        let app: DomainApp
        let entry: CatalogEntry
    }

    private var deciding: [String: Owner] = [:]
    private var schemes: [Key: String] = [:]
    /// The workspaces owning each scheme, for resolve without a workspace.
    private var workspaces: [String: Set<UUID>] = [:]

    private struct Key: Hashable {
        let workspace: UUID
        let scheme: String
    }

    init(_ entries: some Sequence<CatalogEntry>) {
        for entry in entries {
            for app in entry.compiled.appsNamedByRules(.ios) + entry.compiled.appsNamedByRules(.android) {
                let candidate = Owner(app: app, entry: entry)
                if let current = deciding[app.id], !Self.precedes(candidate, current) { continue }
                deciding[app.id] = candidate
            }
        }
        for (id, owner) in deciding {
            guard let scheme = owner.app.customScheme else { continue }
            let key = Key(workspace: owner.entry.workspaceID, scheme: scheme)
            workspaces[scheme, default: []].insert(owner.entry.workspaceID)
            // Two apps of a workspace registering one scheme is the operator's mistake (iOS then opens either):
            // linkd picks the smaller app id, every time.
            if let current = schemes[key], current < id { continue }
            schemes[key] = id
        }
    }

    /// Whether `candidate`'s domain decides for its app rather than `current`'s: the app's primary domain, else
    /// the oldest domain (then the first hostname).
    private static func precedes(_ candidate: Owner, _ current: Owner) -> Bool {
        let primary = candidate.app.primaryDomainID
        let candidateIsPrimary = candidate.entry.domainID.canonicalText == primary
        let currentIsPrimary = current.entry.domainID.canonicalText == primary
        if candidateIsPrimary != currentIsPrimary { return candidateIsPrimary }
        if candidate.entry.createdAt != current.entry.createdAt { return candidate.entry.createdAt < current.entry.createdAt }
        return candidate.entry.hostname < current.entry.hostname
    }

    /// The app `id` (canonical UUID text) with its deciding domain; nil when no domain's rules name it.
    func owner(ofApp id: String) -> Owner? { deciding[id] }

    /// The app of `workspace` that registered `scheme`; with no workspace, only a scheme one workspace alone owns.
    func owner(ofScheme scheme: String, workspace: UUID?) -> Owner? {
        let workspace = workspace ?? workspaces[scheme].flatMap { $0.count == 1 ? $0.first : nil }
        guard let workspace, let id = schemes[Key(workspace: workspace, scheme: scheme)] else { return nil }
        return deciding[id]
    }
}
