import Foundation
import Observability
import Postgres

/// Rebuilds catalog entries from the database, one reload at a time on one serial queue, off the listener
/// thread. Every install goes through that queue, and each reload reads the database when its turn comes, so
/// installs follow the order of the snapshots they were read from: an entry is never replaced by one read
/// before it.
struct CatalogReloader: Sendable {
    let catalog: Catalog
    let pool: ConnectionPool
    let logger: Logger
    /// The notifications this node's writes send and install themselves (`ChangeFeed` skips them).
    let own = OwnNotifications()
    /// Records association versions (writes, through `CatalogChanges`; full loads reconcile); nil: none kept.
    let versions: AssociationVersionRecorder?
    private let queue = DispatchQueue(label: "linkd.catalog.reload")
    /// Where full loads reconcile versions, off the reload queue (installs never wait for it); held until
    /// `startRecording()`, which the application calls once the server listens, so that recording the versions a
    /// start finds (one insert a domain, every domain's on a first start) never competes with the start for the
    /// cores or the database.
    private let reconciling = HeldQueue(label: "linkd.catalog.versions")

    init(catalog: Catalog, pool: ConnectionPool, logger: Logger, versions: AssociationVersionRecorder? = nil) {
        self.catalog = catalog
        self.pool = pool
        self.logger = logger
        self.versions = versions
    }

    /// Loads the whole catalog now (at start).
    /// - Throws: `PostgresError` when the database cannot be read.
    func reloadAll() throws {
        try queue.sync { try loadAll() }
    }

    /// A write's own compilation of a hostname it changed, and the entry the catalog held before it committed.
    struct Prepared {
        let entry: CatalogEntry
        let before: CatalogEntry?
    }

    /// Installs `hostnames` now and returns once they are installed (a write's own changes). A hostname the write
    /// compiled itself (`prepared`) is installed as compiled when the catalog still holds the entry it held before
    /// the write committed: every entry installed before that was read before the write, so the write's is newer.
    /// Otherwise (an entry was installed since, which may have been read after the write) it is re-read. A failure
    /// is logged and marks the catalog stale.
    func install(_ hostnames: [String], prepared: [String: Prepared] = [:]) {
        queue.sync {
            do {
                let toRead = hostnames.filter { hostname in
                    guard let prepared = prepared[hostname], let before = prepared.before,
                        catalog.entry(exactly: hostname) === before
                    else { return true }
                    catalog.replace(hostname, with: prepared.entry)
                    return false
                }
                if !toRead.isEmpty { try load(toRead) }
            } catch {
                catalog.markStale()
                logger.warning(
                    "catalog rebuild after a write failed; serving the last good entries",
                    metadata: [
                        "catalog.hosts": hostnames.joined(separator: ","), "error": "\(error)",
                    ])
            }
        }
    }

    func reloadSoon(_ hostname: String) {
        queue.async {
            do {
                try load([hostname])
            } catch {
                catalog.markStale()
                logger.warning(
                    "catalog reload failed; serving the last good entry", metadata: ["catalog.host": hostname, "error": "\(error)"])
            }
        }
    }

    func reloadAllSoon() {
        queue.async {
            do {
                try loadAll()
            } catch {
                catalog.markStale()
                logger.warning("catalog reload failed; serving the last good catalog", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Lets the version reconciliations run: those queued already (the start's) and every later one. Idempotent.
    func startRecording() {
        reconciling.release()
    }

    /// Waits until queued reloads (and the version reconciliations they started) have run; starts recording.
    func drain() {
        queue.sync {}
        reconciling.release()
        reconciling.queue.sync {}
    }

    // MARK: - On the queue

    private func loadAll() throws {
        let started = Date()
        let (entries, latest) = try pool.withTransaction { connection in
            let entries = try CatalogLoader.load(on: connection, counter: catalog.compilations)
            // (The latest versions as of the same snapshot: what the loaded files are compared with.)
            return (entries, versions == nil ? [:] : try AssociationVersionStore.latest(domains: nil, on: connection))
        }
        catalog.replaceAll(entries)
        logger.info(
            "catalog loaded",
            metadata: [
                "catalog.domains": "\(entries.count)",
                "catalog.duration_ms": "\(Int(Date().timeIntervalSince(started) * 1000))",
            ])
        guard let versions else { return }
        reconciling.queue.async { [pool, logger] in
            do {
                let started = Date()
                let found = try versions.reconcile(entries, latest: latest, pool: pool)
                if found > 0 {
                    logger.info(
                        "association versions found at load",
                        metadata: [
                            "catalog.versions_found": "\(found)", "catalog.duration_ms": "\(Int(Date().timeIntervalSince(started) * 1000))",
                        ])
                }
            } catch {
                logger.warning("recording the association versions found at load failed", metadata: ["error": "\(error)"])
            }
        }
    }

    private func load(_ hostnames: [String]) throws {
        let entries = try pool.withTransaction { try CatalogLoader.load(hostnames: hostnames, on: $0, counter: catalog.compilations) }
        let byHost = Dictionary(entries.map { ($0.hostname, $0) }, uniquingKeysWith: { _, last in last })
        for hostname in hostnames {
            catalog.replace(hostname, with: byHost[hostname])
            logger.debug("catalog entry reloaded", metadata: ["catalog.host": hostname, "catalog.present": "\(byHost[hostname] != nil)"])
        }
    }
}
