import Foundation
import Postgres

/// Every write that changes what nodes keep in memory (link domains in the `Catalog`, API keys in the
/// `KeyCache`) goes through `commit`: the one place where a change is announced to the other nodes and
/// installed on this one.
///
/// - Announced: each change `NOTIFY`s inside the writing transaction (`linkd_catalog` with a hostname,
///   `linkd_keys` with a key id), so PostgreSQL delivers it only if and when the transaction commits;
///   every node `LISTEN`s and rebuilds just those hostnames (`ChangeFeed`).
/// - Installed (read your own writes): after COMMIT, and before the write answers, this node rebuilds the
///   changed hostnames itself and drops the revoked keys, so a client reading from the node it wrote to
///   never sees the state before its write. The rebuild runs in turn with every other reload
///   (`CatalogReloader.install`), so a reload that read the database earlier cannot replace it afterwards.
struct CatalogChanges: Sendable {
    static let channel = "linkd_catalog"

    let pool: ConnectionPool
    let reloader: CatalogReloader
    let keys: KeyCache

    /// Runs `body` in one transaction; `changed` collects (and announces) what it changes. Returns once the
    /// transaction has committed and this node has installed those changes.
    /// - Throws: whatever `body` or the transaction throws (nothing is installed then). A committed change
    ///   whose rebuild fails (the database lost right after COMMIT) is not an error: the write happened; the
    ///   catalog is marked stale and is reloaded whole when the change feed reconnects.
    @discardableResult
    func commit<T>(_ body: (Connection, ChangeSet) throws -> T) throws -> T {
        let changed = ChangeSet()
        let value = try pool.withTransaction { connection in try body(connection, changed) }
        for id in changed.revokedKeys { keys.invalidate(id) }
        if !changed.hostnames.isEmpty { reloader.install(changed.hostnames) }
        return value
    }
}

/// What one write transaction changed, collected by `CatalogChanges.commit` (used on the writing thread only).
final class ChangeSet {
    /// Link domains to rebuild, in the order first announced.
    private(set) var hostnames: [String] = []
    private var announced: Set<String> = []
    /// API keys revoked.
    private(set) var revokedKeys: [UUID] = []

    /// The domain `hostname` (created, changed or deleted) must be rebuilt.
    func domainChanged(_ hostname: String, on connection: Connection) throws {
        guard !announced.contains(hostname) else { return }
        try connection.notify(CatalogChanges.channel, payload: hostname)
        announced.insert(hostname)
        hostnames.append(hostname)
    }

    /// An app's identity, store links or destination types feed every domain whose rules or settings name it.
    func appChanged(_ appID: UUID, on connection: Connection) throws {
        for host in try AppStore.hostnames(using: appID, on: connection) { try domainChanged(host, on: connection) }
    }

    /// The key `id` was revoked: every node drops it from its cache.
    func keyRevoked(_ id: UUID, on connection: Connection) throws {
        try connection.notify(KeyCache.channel, payload: id.canonicalText)
        revokedKeys.append(id)
    }
}
