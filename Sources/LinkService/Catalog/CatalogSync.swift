import Foundation
import Observability
import Postgres

/// Keeps the catalog coherent across nodes: loads it whole at start, then `LISTEN`s on
/// `linkd_catalog` and rebuilds each hostname a committed write announces. When a reload fails the
/// catalog is marked stale and keeps serving; when the listener reconnects, everything is reloaded,
/// since notifications sent meanwhile were lost.
final class CatalogSync: Sendable {
    let catalog: Catalog
    private let reloader: CatalogReloader
    private let listener: NotificationListener

    init(catalog: Catalog, pool: ConnectionPool, parameters: ConnectionParameters, logger: Logger) {
        self.catalog = catalog
        let reloader = CatalogReloader(catalog: catalog, pool: pool, logger: logger)
        self.reloader = reloader
        listener = NotificationListener(
            parameters: parameters, channels: [CatalogChanges.channel], logger: logger,
            onNotification: { reloader.reloadSoon($0.payload) },
            onReconnect: { reloader.reloadAllSoon() }
        )
    }

    /// Starts listening, then loads the whole catalog (before the server reports ready): in this order no
    /// change committed in between can be missed.
    /// - Throws: `PostgresError` when the database cannot be read.
    func start() throws {
        listener.start()
        do {
            try reloader.reloadAll()
        } catch {
            listener.shutdown()
            throw error
        }
    }

    /// Stops listening and waits for a reload in progress. Idempotent.
    func shutdown() {
        listener.shutdown()
        reloader.drain()
    }

    /// Whether the listener is connected (false: changes made on other nodes may be missing).
    var isListening: Bool { listener.isConnected }
}

/// Rebuilds catalog entries from the database, one reload at a time, off the listener thread.
struct CatalogReloader: Sendable {
    let catalog: Catalog
    let pool: ConnectionPool
    let logger: Logger
    private let queue = DispatchQueue(label: "linkd.catalog.reload")

    init(catalog: Catalog, pool: ConnectionPool, logger: Logger) {
        self.catalog = catalog
        self.pool = pool
        self.logger = logger
    }

    func reloadAll() throws {
        let started = Date()
        let entries = try pool.withConnection { try CatalogLoader.load(on: $0) }
        catalog.replaceAll(entries)
        logger.info("catalog loaded", metadata: [
            "catalog.domains": "\(entries.count)",
            "catalog.duration_ms": "\(Int(Date().timeIntervalSince(started) * 1000))",
        ])
    }

    func reload(_ hostname: String) throws {
        let entry = try pool.withConnection { try CatalogLoader.load(hostnames: [hostname], on: $0) }.first
        catalog.replace(hostname, with: entry)
        logger.debug("catalog entry reloaded", metadata: ["catalog.host": hostname, "catalog.present": "\(entry != nil)"])
    }

    func reloadSoon(_ hostname: String) {
        queue.async {
            do {
                try reload(hostname)
            } catch {
                catalog.markStale()
                logger.warning("catalog reload failed; serving the last good entry", metadata: ["catalog.host": hostname, "error": "\(error)"])
            }
        }
    }

    func reloadAllSoon() {
        queue.async {
            do {
                try reloadAll()
            } catch {
                catalog.markStale()
                logger.warning("catalog reload failed; serving the last good catalog", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Waits until queued reloads have run.
    func drain() { queue.sync {} }
}
