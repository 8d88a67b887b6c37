import Foundation
import Observability
import Postgres

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
        let entries = try pool.withTransaction { try CatalogLoader.load(on: $0) }
        catalog.replaceAll(entries)
        logger.info("catalog loaded", metadata: [
            "catalog.domains": "\(entries.count)",
            "catalog.duration_ms": "\(Int(Date().timeIntervalSince(started) * 1000))",
        ])
    }

    func reload(_ hostname: String) throws {
        let entry = try pool.withTransaction { try CatalogLoader.load(hostnames: [hostname], on: $0) }.first
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
