import Foundation
import HTTPServer
import LinkKit

/// One link domain, ready to serve: compiled rules and the rendered association files.
///
/// A class (immutable, so `Sendable`): a read copies one reference out of the catalog's lock instead of
/// retaining every field of a large struct.
final class CatalogEntry: Sendable {
    let domainID: UUID
    let workspaceID: UUID
    let hostname: String
    /// When the domain was registered: the oldest domain naming an app decides its custom-scheme links.
    let createdAt: Date
    let settings: DomainSettingsRecord
    /// Possibly shared with other domains of the workspace that have the same settings and rules: its `rules`
    /// carry no ids (`""`); `ruleIDs` are this domain's.
    let compiled: CompiledDomain
    /// This domain's rule ids, in rule order.
    let ruleIDs: [UUID]
    let aasa: StaticDocument
    let assetLinks: StaticDocument
    /// The click overrides of the domain's rules, by rule position (shared with the compilation).
    let clicks: [Int: RuleClick]
    /// Whether the domain has links, and the apps they open (`LinkSpace`).
    let links: LinkSpace
    /// The apps the link space opens, one a platform (`CompiledRules.linkApps`).
    let linkApps: [String]

    init(domain: Domain, rules: CompiledRules, ruleIDs: [UUID], links: LinkSpace, lastModified: Date) {
        domainID = domain.id
        workspaceID = domain.workspaceID
        hostname = domain.hostname
        createdAt = domain.createdAt
        settings = domain.settings
        compiled = rules.compiled
        clicks = rules.clicks
        self.links = links
        linkApps = rules.linkApps
        // (Held for the life of the entry: stored without the room left by appending.)
        self.ruleIDs = [UUID](unsafeUninitializedCapacity: ruleIDs.count) { $1 = $0.initialize(fromContentsOf: ruleIDs) }
        aasa = StaticDocument(rules.aasa, lastModified: lastModified)
        assetLinks = StaticDocument(rules.assetLinks, datedAs: aasa)
    }

    /// What `url` does for `platform`'s apps, reporting this domain's rule id.
    func resolve(_ url: AASAURL, platform: AppPlatform) -> LinkResolution {
        compiled.resolve(url, platform: platform) { ruleID(at: $0)?.canonicalText }
    }

    /// What the custom-scheme link `url` (as the https URL on this domain) does for `app` alone.
    func resolve(_ url: AASAURL, for app: DomainApp) -> LinkResolution {
        compiled.resolve(url, for: app) { ruleID(at: $0)?.canonicalText }
    }

    /// The app a link opens on `platform`: the link's own app on its platform, else the app the link space opens
    /// there, when it declares the link's destination type (`LinkSpace.claimedApps`).
    func linkApp(_ appID: String, type: String, platform: AppPlatform) -> DomainApp? {
        for id in linkApps {
            guard let app = compiled.apps.first(where: { $0.id == id }), app.platform == platform else { continue }
            return app.id == appID || app.destinations[type] != nil ? app : nil
        }
        return nil
    }

    /// This domain's id of the rule at `position`; nil for none.
    func ruleID(at position: Int?) -> UUID? {
        guard let position, position < ruleIDs.count else { return nil }
        return ruleIDs[position]
    }
}

/// Bytes served as they are, with a strong ETag derived from the bytes (so every node agrees) and a
/// Last-Modified time.
struct StaticDocument: Sendable {
    /// The bytes and their ETag (shared by domains whose files are identical).
    struct Body: Sendable {
        let bytes: [UInt8]
        /// `"<first 32 hex digits of SHA-256>"`.
        let etag: String

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            etag = ETag.strong(of: bytes)
        }
    }

    let body: Body
    let lastModified: Date
    /// IMF-fixdate (RFC 9110 §5.6.7), whole seconds.
    let lastModifiedHeader: String

    /// The association endpoint's answers, made on first use: `PreparedResponse`s for 200 and 304
    /// (`AssociationHandlers.Answer`). Per document, so they go with this version of it.
    let prepared = OnceSlots<PreparedResponse>(count: 2)

    var bytes: [UInt8] { body.bytes }
    var etag: String { body.etag }

    init(_ body: Body, lastModified: Date) {
        self.body = body
        let seconds = Date(timeIntervalSince1970: lastModified.timeIntervalSince1970.rounded(.down))
        self.lastModified = seconds
        lastModifiedHeader = HTTPDate.format(seconds)
    }

    /// A document of `body` with `other`'s Last-Modified (one header string for both files of a domain).
    init(_ body: Body, datedAs other: StaticDocument) {
        self.body = body
        lastModified = other.lastModified
        lastModifiedHeader = other.lastModifiedHeader
    }
}
