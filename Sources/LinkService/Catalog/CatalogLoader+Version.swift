import Foundation
import LinkKit

extension CatalogLoader {
    /// The entry an association version's snapshot compiles to, with `apps` (the workspace's apps now), through the
    /// path a catalog load compiles a domain with (`DomainRules.compile`): the version's settings, rules (with
    /// their apps, in order) and link space in place of the domain's current ones.
    static func entry(of version: AssociationVersionFiles, domain: Domain, apps: [DomainApp]) -> CatalogEntry {
        let snapshot = version.snapshot
        let settings = DomainSettingsRecord(stored: snapshot["settings"] ?? .object([]))
        let then = Domain(
            id: domain.id, workspaceID: domain.workspaceID, hostname: domain.hostname, settings: settings,
            version: domain.version, createdAt: domain.createdAt, updatedAt: version.version.createdAt,
            sortMicros: domain.sortMicros)
        var rules = DomainRules(domain: then)
        for rule in snapshot["rules"]?.arrayValue ?? [] {
            guard let id = rule["id"]?.stringValue.flatMap(UUID.init(uuidString:)) else { continue }
            let apps = rule["apps"]?.arrayValue?.compactMap { $0.stringValue.flatMap(UUID.init(uuidString:)) } ?? []
            rules.add(id, definition: (rule["definition"] ?? .null).serializedBytes, apps: apps)
        }
        let links = LinkSpace(json: snapshot["links"])
        let context = Context(appsByWorkspace: [domain.workspaceID: apps], appUpdated: [:], links: [domain.id: links])
        return CatalogEntry(
            domain: then, rules: rules.compile(context), ruleIDs: rules.ids, links: links,
            lastModified: version.version.createdAt)
    }
}
