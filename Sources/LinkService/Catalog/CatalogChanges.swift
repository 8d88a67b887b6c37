import Foundation
import LinkKit
import Postgres

/// Every write that changes what nodes keep in memory (link domains in the `Catalog`, API keys in the
/// `KeyCache`, stored links in the `LinkCache`) goes through `commit`: the one place where a change is announced to the other nodes and
/// installed on this one.
///
/// - Announced: each change `NOTIFY`s inside the writing transaction (`linkd_catalog` with a hostname,
///   `linkd_keys` with a key id, `linkd_links` with a domain id), so PostgreSQL delivers it only if and when the
///   transaction commits; every node `LISTEN`s and rebuilds just those hostnames (`ChangeFeed`).
/// - Installed (read your own writes): after COMMIT, and before the write answers, this node installs the
///   changed hostnames itself and drops the revoked keys and changed links, so a client reading from the node it wrote to
///   never sees the state before its write. A write that compiled a domain to validate it (a rules change)
///   installs that compilation; other changed hostnames are re-read. The install runs in turn with every
///   other reload (`CatalogReloader.install`), so a reload that read the database earlier cannot replace it
///   afterwards, and this node's `ChangeFeed` skips the notifications the write sent (`OwnNotifications`).
/// - Told: the webhook events the write causes (`ChangeSet.event`, and `domain.association.changed` for each
///   version recorded) are inserted into the outbox before COMMIT, so they commit with the change or not at all
///   (docs/WEBHOOKS.md).
struct CatalogChanges: Sendable {
    static let channel = "linkd_catalog"
    /// A domain's links changed (payload: the domain's id).
    static let linksChannel = "linkd_links"
    /// Which links changed, for the `LinkIndex` (payload: the domain's id and a space and the slug; the domain's id
    /// alone when the write does not say which, a bulk write or an import). Sent before the domain's `linkd_links`.
    static let linkSlugsChannel = "linkd_link_slugs"

    /// The domain and slug (nil: any of the domain's) a `linkd_link_slugs` payload names.
    static func linkChange(_ payload: String) -> (domain: UUID, slug: String?)? {
        let parts = payload.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let domain = UUID(uuidString: String(first)) else { return nil }
        return (domain, parts.count == 2 ? String(parts[1]) : nil)
    }

    let pool: ConnectionPool
    let reloader: CatalogReloader
    let keys: KeyCache
    /// Rung after a commit that queued webhook events (wakes this node's delivery).
    let outbox: WebhookOutboxBell
    /// The sessions this node keeps; nil: none.
    var sessions: SessionCache? = nil
    /// The links this node keeps; nil: none.
    var links: LinkCache? = nil

    /// Runs `body` in one transaction; `changed` collects (and announces) what it changes. Returns once the
    /// transaction has committed and this node has installed those changes.
    /// - Throws: whatever `body` or the transaction throws (nothing is installed then). A committed change
    ///   whose rebuild fails (the database lost right after COMMIT) is not an error: the write happened; the
    ///   catalog is marked stale and is reloaded whole when the change feed reconnects.
    @discardableResult
    func commit<T>(_ body: (Connection, ChangeSet) throws -> T) throws -> T {
        let changed = ChangeSet()
        var sender: Int32?
        var prepared: [String: CatalogReloader.Prepared] = [:]
        let value: T
        do {
            value = try pool.withTransaction { connection in
                let value = try body(connection, changed)
                // A domain whose links now open other apps (or that gained its first link, or lost its last) claims
                // another link space in its files: it is rebuilt like any changed domain.
                for (domain, hostname) in changed.linkDomains {
                    let space = try LinkStore.spaces(domains: [domain], on: connection)[domain] ?? .none
                    if space != reloader.catalog.entry(exactly: hostname)?.links { try changed.domainChanged(hostname, on: connection) }
                }
                // The changed files are kept as versions in this transaction; the domains compiled for that are
                // installed as this write's own compilations.
                var compiled = changed.compiled
                if let versions = reloader.versions {
                    let (loaded, recorded) = try versions.record(
                        changed.hostnames, compiled: compiled, on: connection,
                        counter: reloader.catalog.compilations)
                    compiled.merge(loaded) { first, _ in first }
                    for version in recorded { try associationChanged(version, changed, on: connection) }
                }
                // The events the change causes are queued with it: committed together or not at all.
                try WebhookStore.enqueue(changed.events, on: connection)
                try WebhookStore.markDue(workspaces: Array(changed.dueLater), on: connection)
                // Before COMMIT: the entries held now were read before this write, and the notifications may
                // reach the listener before COMMIT returns here.
                for (hostname, entry) in compiled {
                    prepared[hostname] = .init(entry: entry, before: reloader.catalog.entry(exactly: hostname))
                }
                if !changed.hostnames.isEmpty || !changed.linkDomains.isEmpty {
                    sender = connection.backendPID
                    reloader.own.expect(changed.hostnames, from: connection.backendPID)
                    reloader.own.expect(changed.linkDomainPayloads, on: Self.linksChannel, from: connection.backendPID)
                    reloader.own.expect(changed.linkSlugPayloads, on: Self.linkSlugsChannel, from: connection.backendPID)
                }
                return value
            }
        } catch {
            if let sender {
                reloader.own.withdraw(changed.hostnames, from: sender)
                reloader.own.withdraw(changed.linkDomainPayloads, on: Self.linksChannel, from: sender)
                reloader.own.withdraw(changed.linkSlugPayloads, on: Self.linkSlugsChannel, from: sender)
            }
            throw error
        }
        for id in changed.revokedKeys { keys.invalidate(id) }
        for person in changed.sessionPeople { sessions?.invalidate(person: person) }
        if !changed.linkDomains.isEmpty {
            for change in changed.linkSlugPayloads.compactMap(Self.linkChange) {
                if let slug = change.slug {
                    links?.linkChanged(domain: change.domain, slug: slug)
                } else {
                    links?.domainChanged(change.domain)
                }
            }
            for domain in changed.linkDomains.keys { links?.drop(domain: domain) }
            reloader.catalog.linksChanged()
        }
        if !changed.hostnames.isEmpty { reloader.install(changed.hostnames, prepared: prepared) }
        if !changed.events.isEmpty || changed.queuedDirectly > 0 { outbox.ring() }
        return value
    }

    /// Queues `domain.association.changed` for a version the write recorded: its number, ETags and how many URLs of
    /// the domain's corpus it moves (`AssociationMoves`, against the entry this node served before the write).
    private func associationChanged(
        _ version: AssociationVersionRecorder.Recorded, _ changed: ChangeSet,
        on connection: Connection
    ) throws {
        let entry = version.entry
        try changed.event(.associationChanged, workspace: entry.workspaceID, on: connection) {
            let before = reloader.catalog.entry(exactly: entry.hostname)
            let moved = try before.map { try AssociationMoves.count(from: $0, to: entry, on: connection) }
            return .object([
                "domain": .string(entry.hostname),
                "version": .integer(version.number),
                "previousVersion": version.number > 1 ? .integer(version.number - 1) : .null,
                "aasaETag": .string(entry.aasa.etag),
                "assetlinksETag": .string(entry.assetLinks.etag),
                "moved": moved.map { .integer($0) } ?? .null,
            ])
        }
    }
}

/// What one write transaction changed, collected by `CatalogChanges.commit` (used on the writing thread only).
final class ChangeSet {
    /// Link domains to rebuild, in the order first announced.
    private(set) var hostnames: [String] = []
    private var announced: Set<String> = []
    /// Entries the write compiled itself, by hostname (installed as they are: `CatalogChanges.commit`).
    private(set) var compiled: [String: CatalogEntry] = [:]
    /// API keys revoked.
    private(set) var revokedKeys: [UUID] = []
    /// Domains whose links were created, changed or deleted, with their hostnames.
    private(set) var linkDomains: [UUID: String] = [:]
    /// The `linkd_links` payloads this write sends (the domains' ids).
    var linkDomainPayloads: [String] { linkDomains.keys.map(\.canonicalText) }
    /// The `linkd_link_slugs` payloads this write sends, in order, each once.
    private(set) var linkSlugPayloads: [String] = []
    private var slugsAnnounced: Set<String> = []

    /// The domain `hostname` (created, changed or deleted) must be rebuilt.
    func domainChanged(_ hostname: String, on connection: Connection) throws {
        compiled[hostname] = nil // changed otherwise too: re-read
        guard !announced.contains(hostname) else { return }
        try connection.notify(CatalogChanges.channel, payload: hostname)
        announced.insert(hostname)
        hostnames.append(hostname)
    }

    /// The domain `hostname` changed and `entry` is what it now serves, compiled by the write.
    func domainChanged(_ hostname: String, to entry: CatalogEntry, on connection: Connection) throws {
        try domainChanged(hostname, on: connection)
        compiled[hostname] = entry
    }

    /// An app's identity, store links or destination types feed every domain whose rules or settings name it.
    func appChanged(_ appID: UUID, on connection: Connection) throws {
        for host in try AppStore.hostnames(using: appID, on: connection) { try domainChanged(host, on: connection) }
    }

    /// The link `slug` of the domain `id` (`hostname`) changed (created, changed or deleted; `slug` nil: which links
    /// is not said, a bulk write): every node forgets what it kept of the domain's links, and what its `LinkIndex`
    /// holds of that slug (of the domain, when nil).
    func linksChanged(domain id: UUID, hostname: String, slug: String?, on connection: Connection) throws {
        let payload = slug.map { "\(id.canonicalText) \($0)" } ?? id.canonicalText
        if slugsAnnounced.insert(payload).inserted {
            try connection.notify(CatalogChanges.linkSlugsChannel, payload: payload)
            linkSlugPayloads.append(payload)
        }
        guard linkDomains[id] == nil else { return }
        try connection.notify(CatalogChanges.linksChannel, payload: id.canonicalText)
        linkDomains[id] = hostname
    }

    /// Webhook events to queue before COMMIT (`WebhookStore.enqueue`), in the order caused.
    private(set) var events: [WebhookEvent] = []
    /// The event types each workspace's subscriptions receive, read once per write.
    private var wanted: [UUID: Set<String>] = [:]

    /// Whether an enabled subscription of `workspace` receives `type`.
    func wants(_ type: WebhookEventType, workspace: UUID, on connection: Connection) throws -> Bool {
        if let types = wanted[workspace] { return types.contains(type.rawValue) }
        let types = try WebhookStore.wanted(workspace: workspace, on: connection)
        wanted[workspace] = types
        return types.contains(type.rawValue)
    }

    /// Queues the event `type` of `workspace` with what `data` builds, built only when a subscription receives it.
    func event(_ type: WebhookEventType, workspace: UUID, on connection: Connection, data: () throws -> JSONValue) throws {
        guard try wants(type, workspace: workspace, on: connection) else { return }
        events.append(WebhookEvent(type, workspace: workspace, data: try data()))
    }

    /// Tells the links a bulk request or import created (`links`: each one's JSON, built only when asked) to the
    /// workspace's `link.created` subscribers (docs/WEBHOOKS.md, "Bulk writes"): one `links.bulk_created` event
    /// (`summary()`) to those whose `bulkEvents` is `summary`, and one `link.created` per link to those whose
    /// `bulkEvents` is `each`, inserted as they are built, `chunk` at a time, so a bulk request's events are never
    /// all held at once (those subscriptions are marked due once, before COMMIT).
    func bulkCreated(
        workspace: UUID, on connection: Connection, chunk: Int = 5_000, summary: () -> JSONValue,
        _ links: some Sequence<JSONValue>
    ) throws {
        guard try wants(.linkCreated, workspace: workspace, on: connection) else { return }
        let modes = try WebhookStore.bulkModes(workspace: workspace, on: connection)
        if modes.contains("summary") {
            queuedDirectly += try WebhookStore.enqueue(
                [WebhookEvent(.linksBulkCreated, workspace: workspace, data: summary())],
                to: .bulkSubscribers(mode: "summary"), on: connection)
        }
        guard modes.contains("each") else { return }
        var pending: [WebhookEvent] = []
        for item in links {
            pending.append(WebhookEvent(.linkCreated, workspace: workspace, data: item))
            if pending.count == chunk {
                queuedDirectly += try WebhookStore.enqueue(pending, to: .bulkSubscribers(mode: "each"), markDue: false, on: connection)
                pending.removeAll(keepingCapacity: true)
            }
        }
        queuedDirectly += try WebhookStore.enqueue(pending, to: .bulkSubscribers(mode: "each"), markDue: false, on: connection)
        dueLater.insert(workspace)
    }

    /// Workspaces whose subscriptions got events not yet marked due (`WebhookStore.markDue`, before COMMIT).
    private(set) var dueLater: Set<UUID> = []

    /// Events `bulkCreated(workspace:on:chunk:summary:_:)` inserted already.
    private(set) var queuedDirectly = 0

    /// People whose sessions ended or changed.
    private(set) var sessionPeople: [UUID] = []

    /// Sessions of `person` ended, or changed who they act as (workspace, role): every node drops what it keeps
    /// of them (`SessionCache`).
    func sessionsChanged(person: UUID, on connection: Connection) throws {
        try connection.notify(SessionCache.channel, payload: person.canonicalText)
        sessionPeople.append(person)
    }

    /// The key `id` was revoked: every node drops it from its cache.
    func keyRevoked(_ id: UUID, on connection: Connection) throws {
        try connection.notify(KeyCache.channel, payload: id.canonicalText)
        revokedKeys.append(id)
    }
}
