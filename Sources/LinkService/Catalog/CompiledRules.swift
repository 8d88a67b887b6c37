import Foundation
import LinkKit
import Synchronization

/// What every domain of a workspace with the same settings and rules (definitions and apps, in order) shares:
/// the compiled matchers and the rendered association files with their ETags. Compiled once per load for the
/// first such domain; the others differ only in hostname, rule ids and Last-Modified, which `CatalogEntry` keeps.
final class CompiledRules: Sendable {
    let compiled: CompiledDomain
    let aasa: StaticDocument.Body
    let assetLinks: StaticDocument.Body
    /// The click overrides of the rules that have one, by rule position (`RuleClick`).
    let clicks: [Int: RuleClick]
    /// The ids of the apps the link space opens (its rule, the last, names them: `LinkSpace`), one a platform.
    let linkApps: [String]

    /// - Parameter bodies: the files of the load compiling this domain, whose identical `assetlinks.json` it then shares.
    init(_ compiled: CompiledDomain, clicks: [Int: RuleClick] = [:], linkApps: [String] = [], bodies: Bodies? = nil) {
        var compiled = compiled
        self.clicks = clicks
        self.linkApps = linkApps
        aasa = StaticDocument.Body(compiled.aasaBytes)
        if let bodies {
            assetLinks = bodies.assetLinks(compiled.assetLinksBytes)
            compiled.share(assetLinks: assetLinks.bytes)
        } else {
            assetLinks = StaticDocument.Body(compiled.assetLinksBytes)
        }
        self.compiled = compiled
    }

    /// The `assetlinks.json` bodies a load has made, by bytes: a workspace's domains usually name the same Android
    /// apps, so their statement lists are identical, and are held (and hashed) once.
    final class Bodies: Sendable {
        private let assetLinks = Mutex<[[UInt8]: StaticDocument.Body]>([:])

        /// The body of `bytes`: one made before for the same bytes, or a new one.
        func assetLinks(_ bytes: [UInt8]) -> StaticDocument.Body {
            if let known = assetLinks.withLock({ $0[bytes] }) { return known }
            let body = StaticDocument.Body(bytes)
            return assetLinks.withLock { bodies in
                if let known = bodies[bytes] { return known }
                bodies[bytes] = body
                return body
            }
        }
    }

    /// Equal keys compile to equal files and matchers: the workspace (its apps), the settings that shape the files
    /// (not the hostname), each rule's stored definition and apps, in order, and the apps the domain's links open.
    /// Built from the stored bytes, before anything is decoded; hashed once.
    struct Key: Hashable {
        let workspaceID: UUID
        let settings: DomainSettings
        let rules: StoredRules
        let links: LinkSpace
        private let hash: Int

        init(workspaceID: UUID, settings: DomainSettings, rules: StoredRules, links: LinkSpace) {
            self.workspaceID = workspaceID
            self.settings = settings
            self.rules = rules
            self.links = links
            var hasher = Hasher()
            hasher.combine(workspaceID)
            hasher.combine(settings)
            hasher.combine(links)
            rules.definitions.withUnsafeBytes { hasher.combine(bytes: $0) }
            rules.definitionEnds.withUnsafeBytes { hasher.combine(bytes: $0) }
            rules.apps.withUnsafeBytes { hasher.combine(bytes: $0) }
            rules.appEnds.withUnsafeBytes { hasher.combine(bytes: $0) }
            hash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// A domain's rules as stored, in order, in four flat arrays (two allocations per domain, not two per rule):
    /// rule `i`'s `definition` JSON is `definitions[definitionEnds[i-1]..<definitionEnds[i]]`, its apps likewise.
    struct StoredRules: Hashable {
        var definitions: [UInt8] = []
        var definitionEnds: [Int] = []
        var apps: [UUID] = []
        var appEnds: [Int] = []

        var count: Int { definitionEnds.count }

        mutating func append(definition: UnsafeRawBufferPointer?) {
            if let definition { definitions.append(contentsOf: definition) }
            definitionEnds.append(definitions.count)
            appEnds.append(apps.count)
        }

        /// Adds an app to the last rule.
        mutating func appendApp(_ app: UUID) {
            apps.append(app)
            appEnds[appEnds.count - 1] = apps.count
        }

        func definition(_ index: Int) -> ArraySlice<UInt8> {
            definitions[(index == 0 ? 0 : definitionEnds[index - 1])..<definitionEnds[index]]
        }

        func apps(_ index: Int) -> ArraySlice<UUID> {
            apps[(index == 0 ? 0 : appEnds[index - 1])..<appEnds[index]]
        }
    }
}
