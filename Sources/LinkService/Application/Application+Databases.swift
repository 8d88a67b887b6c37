import HTTPServer
import Observability
import Postgres

extension Application {
    /// The pools: the one the background services use, the one request handlers borrow from (every wait bounded,
    /// and none on an HTTP worker: the request is handed off, so the workers stay free for what is served from
    /// memory), and the one analytics read from (a replica's when one is configured).
    struct Databases {
        let pool: ConnectionPool
        let requests: ConnectionPool
        /// The replica's own pool, when `ServiceConfiguration.analyticsDatabase` names one.
        let replica: ConnectionPool?
        /// What analytics read: the replica, else `requests` (docs/DEPLOYMENT.md, "Analytics on a replica").
        let analytics: ConnectionPool
        /// What bulk link writes borrow: the request pool's rule for the thread, bounds of their own (`LinkBatch.waits`).
        let batches: ConnectionPool

        init(_ configuration: ServiceConfiguration, handoff: Handoff, metrics: MetricsRegistry, logger: Logger) {
            pool = ConnectionPool(
                parameters: configuration.database, maxConnections: configuration.databasePoolSize,
                logger: logger.with(label: "linkd.db"))
            let requestWaits = BoundedWaits(
                timeout: configuration.databaseRequestTimeout, maxBorrowers: handoff.threads,
                mayWait: { handoff.mayWait() })
            requests = pool.bounded(requestWaits)
            replica = configuration.analyticsDatabase.map {
                ConnectionPool(
                    parameters: $0, maxConnections: configuration.databasePoolSize,
                    logger: logger.with(label: "linkd.analytics-db"))
            }
            analytics = replica?.bounded(requestWaits) ?? requests
            var batchWaits = LinkBatch.waits
            batchWaits.mayWait = requestWaits.mayWait
            batches = pool.bounded(batchWaits)
            registerGauges(in: metrics)
        }

        private func registerGauges(in metrics: MetricsRegistry) {
            metrics.gauge(
                "linkd_db_request_refusals_total",
                help: "Request-thread database waits refused at once: no turn free, or the database stalled."
            ) { [requests] in
                [([:], Double(requests.statistics.refusedTotal))]
            }
            metrics.gauge(
                "linkd_db_stalled",
                help: "1 while the database is taken as stalled: a request-thread wait timed out and it has not answered since."
            ) { [requests] in
                [([:], requests.statistics.stalled ? 1 : 0)]
            }
            metrics.gauge("linkd_db_pool_connections", help: "Pooled database connections by state.") { [pool] in
                let stats = pool.statistics
                return [(["state": "in_use"], Double(stats.inUse)), (["state": "idle"], Double(stats.idle))]
            }
            metrics.gauge("linkd_db_pool_waits_total", help: "Connection acquisitions that had to wait for a free connection.") { [pool] in
                [([:], Double(pool.statistics.waitsTotal))]
            }
            metrics.gauge("linkd_db_pool_timeouts_total", help: "Connection acquisitions that timed out.") { [pool] in
                [([:], Double(pool.statistics.timeoutsTotal))]
            }
        }
    }
}
