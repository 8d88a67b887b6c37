import Foundation
import LinkKit

/// Which link domain decides for each app, and which app owns each custom scheme of a workspace on each platform
/// (an iOS and an Android app of one product share their scheme): an app's
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
        let platform: AppPlatform
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
            let key = Key(workspace: owner.entry.workspaceID, scheme: scheme, platform: owner.app.platform)
            workspaces[scheme, default: []].insert(owner.entry.workspaceID)
            // Two apps of one platform registering one scheme (refused since schemes are unique per platform, but
            // possible in older data) is the operator's mistake (the phone then opens either): linkd picks the
            // smaller app id, every time.
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

    /// The app of `workspace` and `platform` that registered `scheme`; with no workspace, only a scheme one
    /// workspace alone owns. A scheme only another platform's app registered answers nil: a phone hands a scheme
    /// URL to an app of its own platform, never to another's (`schemeOwned(_:workspace:)` says whether one did).
    func owner(ofScheme scheme: String, platform: AppPlatform, workspace: UUID?) -> Owner? {
        guard let workspace = self.workspace(of: scheme, workspace),
            let id = schemes[Key(workspace: workspace, scheme: scheme, platform: platform)]
        else { return nil }
        return deciding[id]
    }

    /// Any app of the workspace that registered `scheme`, whatever its platform (the iOS one first).
    func owner(ofScheme scheme: String, workspace: UUID?) -> Owner? {
        owner(ofScheme: scheme, platform: .ios, workspace: workspace) ?? owner(ofScheme: scheme, platform: .android, workspace: workspace)
    }

    private func workspace(of scheme: String, _ workspace: UUID?) -> UUID? {
        workspace ?? workspaces[scheme].flatMap { $0.count == 1 ? $0.first : nil }
    }
}
