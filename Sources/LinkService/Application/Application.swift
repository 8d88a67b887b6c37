import Foundation
import HTTPServer
import Observability
import Outbound
import Postgres
import UserAgents

/// The running service: constructs and injects every part, starts them in order and stops them in reverse.
///
/// Start order: pool → migrations → the background services (`ServiceGroup`: change feed, which loads the catalog
/// whole and keeps it current by LISTEN → fetch log → hit writer → click tokens → … → association checks → webhook deliveries → webhook cleanup) → HTTP. Stop order: HTTP
/// (finishing in-flight requests) → the background services in reverse (click tokens, which inserts what is
/// queued → hit writer, which writes out every accepted hit → fetch log → change feed) → pool.
public final class Application: Sendable {
    public let configuration: ServiceConfiguration
    public let pool: ConnectionPool
    /// The replica's pool, when `ServiceConfiguration.analyticsDatabase` names one.
    let analyticsPool: ConnectionPool?
    /// The pool as request handlers borrow it (`ConnectionPool.bounded`): the background services use `pool`.
    public let requestPool: ConnectionPool
    public let metrics: MetricsRegistry
    public let router: Router
    public let migrator: Migrator
    public let catalog: Catalog
    /// The hit pipeline: resolve and click handlers call `hits.record(_:from:)`.
    public let hits: HitBatcher
    /// Click tokens of landing pages (deferred deep links, docs/LANDING.md).
    let tokens: ClickTokens
    /// Outbound HTTP for the association health checks, each request allowed by
    /// `OutboundTargets(configuration.outbound, linkHosts:)` (docs/HEALTH.md, "Outbound HTTP").
    let outbound: HTTPClient
    /// Every write that changes what nodes keep, and the events it queues, commits through it.
    let catalogChanges: CatalogChanges
    private let changes: ChangeFeed
    private let fetches: AssociationFetchLog
    private let server: Server
    /// Checks the database for `/readyz` on a thread of its own.
    private let probe: DatabaseProbe
    /// Started in order before the server listens, stopped in reverse after it.
    private let services: ServiceGroup
    private let logger: Logger
    /// The OpenAPI document of every route, as `GET /openapi.json` serves it.
    let openAPIDocument: [UInt8]
    /// Every endpoint routed, as declared (the router's fallback, clicks, is none of them).
    let endpoints: [Endpoint]

    /// Builds the application without starting anything that listens.
    /// - Throws: `MigrationError` when the migrations directory is unreadable or malformed, `HitPipelineError`
    ///   when the spool directory cannot be created or is used by another process, a file error when the
    ///   console folder is configured but unreadable or without `index.html`, `OutboundFailure` when the checks'
    ///   CA file cannot be read.
    public init(configuration: ServiceConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        // The stripes of every per-thread value and cache: one for each worker and for each thread beside them
        // that records (the background services' and the server's own).
        // Requests that would wait on the database run on handoff threads, never on the workers (docs/FAULTS.md).
        let handoff = Handoff(threads: configuration.server.threads)
        let metrics = MetricsRegistry(threads: configuration.server.threads + handoff.threads + Server.backgroundThreads
                                      + ServiceGroup.threads(of: Services.self))
        self.metrics = metrics
        outbound = try HTTPClient(settings: configuration.outbound.clientSettings, logger: logger.with(label: "linkd.outbound"),
                                  metrics: metrics)
        let pool = ConnectionPool(
            parameters: configuration.database,
            maxConnections: configuration.databasePoolSize,
            logger: logger.with(label: "linkd.db")
        )
        self.pool = pool
        // What request handlers borrow: every wait bounded, and none on an HTTP worker (the request is handed off:
        // the workers stay free for what is served from memory: association files, clicks, resolves with cached keys).
        let requestWaits = BoundedWaits(timeout: configuration.databaseRequestTimeout, maxBorrowers: handoff.threads,
                                        mayWait: { handoff.mayWait() })
        let requests = pool.bounded(requestWaits)
        self.requestPool = requests
        // Analytics reads on their own pool when a replica takes them (docs/DEPLOYMENT.md, "Analytics on a replica").
        analyticsPool = configuration.analyticsDatabase.map {
            ConnectionPool(parameters: $0, maxConnections: configuration.databasePoolSize, logger: logger.with(label: "linkd.analytics-db"))
        }
        let analytics = analyticsPool?.bounded(requestWaits) ?? requests
        self.migrator = Migrator(migrations: try configuration.migrationsDirectory.map(Migration.load(from:)) ?? Migration.builtIn(),
                                 logger: logger.with(label: "linkd.migrate"))
        Self.registerPoolGauges(pool, requests: requests, in: metrics)
        let hits = try HitBatcher(pool: pool, configuration: configuration.hits, logger: logger.with(label: "linkd.hits"),
                                  stripes: metrics.stripes)
        hits.register(in: metrics)
        self.hits = hits

        let catalog = Catalog()
        self.catalog = catalog
        catalog.register(in: metrics)
        let keys = KeyCache()
        let reloader = CatalogReloader(catalog: catalog, pool: pool, logger: logger.with(label: "linkd.catalog"),
                                       versions: AssociationVersionRecorder(keep: configuration.associationVersionsKeep))
        let deliveries = WebhookDeliveries(pool: pool, client: outbound, configuration: configuration.webhooks, metrics: metrics,
                                           logger: logger.with(label: "linkd.webhooks"))
        let linkTaps = LinkClickCounter(pool: pool, logger: logger.with(label: "linkd.links"),
                                        clickEvents: .init(interval: configuration.webhooks.clickInterval, limit: configuration.webhooks.clickLimit),
                                        eventsQueued: { deliveries.wake() })
        let links = LinkCache(pool: requests, capacity: configuration.linkCacheSize, taps: linkTaps)
        let changes = ChangeFeed(parameters: configuration.database, reloader: reloader, keys: keys, links: links,
                                 logger: logger.with(label: "linkd.changes"))
        self.changes = changes
        fetches = AssociationFetchLog(pool: pool, metrics: metrics, logger: logger.with(label: "linkd.fetches"))
        var routes = RouterBuilder()
        if !configuration.corsOrigins.isEmpty {
            routes.use(CORSMiddleware(allowedOrigins: configuration.corsOrigins))
        }
        let tokens = ClickTokens(pool: requests, metrics: metrics, logger: logger.with(label: "linkd.tokens"))
        self.tokens = tokens
        var checker = HealthChecker(pool: pool, catalog: catalog, client: outbound, outbound: configuration.outbound,
                                    logger: logger.with(label: "linkd.checks"))
        checker.onTransition = { _, _ in deliveries.wake() }
        let checkCounts = CheckCounts(minimumAge: .seconds(min(10, max(1, configuration.checkInterval))))
        checkCounts.register(in: metrics)
        let checks = HealthChecks(checker: checker, counts: checkCounts, interval: configuration.checkInterval, metrics: metrics,
                                  logger: logger.with(label: "linkd.checks"))
        let cleanup = WebhookCleanup(pool: pool, retentionDays: configuration.webhooks.retentionDays, logger: logger.with(label: "linkd.webhooks"))
        let services = ServiceGroup((changes, fetches, hits, tokens, linkTaps, checks, deliveries, cleanup) as Services,
                                    logger: logger.with(label: "linkd.services"))
        let auth = Authenticator(pool: requests, cache: keys)
        let resolver = Resolver(catalog: catalog, cacheSize: configuration.resolveCacheSize, stripes: metrics.stripes, links: links)
        let agents = UserAgentCache(stripes: metrics.stripes, parser: Self.userAgentParser(configuration.hits, logger: logger))
        var catalogChanges = CatalogChanges(pool: requests, reloader: reloader, keys: keys, links: links)
        catalogChanges.eventsQueued = { deliveries.wake() }
        self.catalogChanges = catalogChanges
        var batchWaits = LinkBatch.waits
        batchWaits.mayWait = requestWaits.mayWait
        var batchChanges = CatalogChanges(pool: pool.bounded(batchWaits), reloader: reloader, keys: keys)
        batchChanges.eventsQueued = catalogChanges.eventsQueued
        let probe = DatabaseProbe(pool: pool, migrator: migrator)
        self.probe = probe
        let clicks = ClickHandler(resolver: resolver, hits: hits, agents: agents, tokens: tokens)
        // Every route, in the order the router tries templates (a literal segment before a parameter at the same
        // place: android-manifest before {language}).
        let providers = OpenIDProviders(client: outbound, configuration: configuration.sso)
        var groups: [any EndpointGroup] = [
            ServiceHandlers(probe: probe, hits: hits, catalog: catalog, changes: changes,
                            services: services, metrics: metrics, logger: logger, clicks: clicks, apiHostname: configuration.apiHostname),
            AssociationHandlers(catalog: catalog, fetches: fetches, maxAge: configuration.associationMaxAge,
                                varyOrigin: !configuration.corsOrigins.isEmpty),
            ResolveHandlers(resolver: resolver, auth: auth, hits: hits, agents: agents, isPublic: configuration.publicResolve),
            LinkBuildHandlers(catalog: catalog, auth: auth),
            LinkBatchHandlers(pool: requests, changes: batchChanges,
                              resolver: resolver, auth: auth),
            LinkHandlers(pool: requests, auth: auth, changes: catalogChanges),
            DomainFileHandlers(catalog: catalog, auth: auth),
            AssociationVersionHandlers(pool: requests, auth: auth),
            HealthHandlers(pool: requests, auth: auth, checker: checker.using(requests), counts: checkCounts,
                           maxOnDemand: max(1, configuration.server.threads / 2)),
            TLSAskHandlers(catalog: catalog, apiHostname: configuration.apiHostname),
            AuditHandlers(pool: requests, auth: auth),
            KeyHandlers(pool: requests, auth: auth, changes: catalogChanges),
            TeamHandlers(pool: requests, auth: auth, changes: catalogChanges),
            AppHandlers(pool: requests, auth: auth, changes: catalogChanges),
            AndroidManifestHandlers(pool: requests, catalog: catalog, auth: auth),
            DestinationHandlers(pool: requests, auth: auth, changes: catalogChanges),
            DomainHandlers(pool: requests, auth: auth, changes: catalogChanges),
            RuleHandlers(pool: requests, auth: auth, changes: catalogChanges),
            CodegenHandlers(pool: requests, auth: auth, resolver: resolver),
            AnalyticsHandlers(pool: analytics, auth: auth),
            ClaimHandlers(tokens: tokens, resolver: resolver, hits: hits, agents: agents),
            QRHandlers(resolver: resolver, auth: auth),
            WebhookHandlers(pool: requests, auth: auth, changes: catalogChanges, configuration: configuration.webhooks,
                            queued: { deliveries.wake() }, deleted: { cleanup.wake() }),
            SSOHandlers(pool: requests, providers: providers, keys: configuration.webhooks.keys),
            SSOSignInHandlers(pool: requests, providers: providers, keys: configuration.webhooks.keys, configuration: configuration.sso),
        ]
        if let files = Self.consoleFiles(configuration, logger: logger) {
            groups.append(ConsoleHandlers(files: files, catalog: catalog, clicks: clicks))
        }
        let openAPI = OpenAPIHandlers(describing: groups)
        self.openAPIDocument = openAPI.body
        endpoints = (groups + [openAPI]).flatMap(\.endpoints)
        routes.add(endpoints, auth: auth)
        routes.fallback { try clicks.handle($0) }
        self.router = Router(routes, logger: logger.with(label: "linkd.http"), metrics: metrics, accessLog: configuration.accessLog,
                             handoff: handoff)
        var server = configuration.server
        server.routeBodyLimits += groups.flatMap(\.endpoints).compactMap { endpoint in
            endpoint.maxBodyBytes.map { RouteBodyLimit(method: endpoint.method, path: endpoint.path, maxBytes: max($0, server.maxBodyBytes)) }
        }
        self.server = Server(configuration: server, responder: router, logger: logger.with(label: "linkd.http"), metrics: metrics,
                             handoff: handoff)
        self.services = services
    }

    /// Applies migrations (unless configured not to), starts the background services and starts listening; when
    /// the server cannot listen, stops the services again.
    /// - Throws: `MigrationError`, `PostgresError` (database unreachable), `HTTPServerError` (cannot bind).
    public func start() throws {
        if configuration.migrateOnStart {
            let applied = try migrator.migrate(using: pool)
            logger.info("migrations current", metadata: ["migration.applied": "\(applied.count)"])
        }
        try services.start()
        probe.start()
        do {
            try server.start()
        } catch {
            probe.shutdown()
            services.shutdown()
            throw error
        }
        logger.info("listening", metadata: ["http.address": configuration.server.host, "http.port": "\(server.port)"])
    }

    /// The bound port (useful when configured with port 0).
    public var port: Int { server.port }

    /// Stops accepting, finishes in-flight requests, then stops background work, writes out every accepted
    /// hit and closes the database pool. Idempotent.
    public func shutdown() {
        server.shutdown()
        probe.shutdown()
        services.shutdown()
        analyticsPool?.shutdown()
        pool.shutdown()
        logger.info("stopped")
    }

    /// The background services, in start order: the one list of them. The metrics' stripes are sized with their
    /// threads before any is built (each takes the stripes), and `init` builds the group from a value of this
    /// type, so a service added, removed or moved here and not there does not compile.
    typealias Services = (ChangeFeed, AssociationFetchLog, HitBatcher, ClickTokens, LinkClickCounter, HealthChecks,
                          WebhookDeliveries, WebhookCleanup)

    /// uap-core's regexes for the hits' operating systems and browsers, compiled once (not its device section, which
    /// the hits do not use); nil (logged) when they cannot be loaded: hits then record neither, and everything else
    /// works as before.
    private static func userAgentParser(_ configuration: HitsConfiguration, logger: Logger) -> UserAgentParser? {
        do {
            return try UserAgentParser(contentsOf: configuration.userAgentRegexes, devices: false)
        } catch {
            logger.warning("hits record no operating system or browser", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// The console to serve, said in the log at start: the built-in one, or the folder given instead; nil when
    /// off, or (logged as an error) when that folder holds no console: everything else is served as before.
    private static func consoleFiles(_ configuration: ServiceConfiguration, logger: Logger) -> ConsoleFiles? {
        do {
            let files: ConsoleFiles
            switch configuration.console {
            case .off:
                return nil
            case .builtIn:
                files = try ConsoleFiles(builtIn: EmbeddedFolder.console, chartJS: configuration.chartJS)
            case .directory(let directory):
                files = try ConsoleFiles(directory: directory, chartJS: configuration.chartJS)
            }
            logger.info("console served at /console/", metadata: ["console.source": configuration.console.description,
                                                                  "console.files": "\(files.files.count)"])
            return files
        } catch {
            logger.error("console not served: /console/ answers 404", metadata: [
                "console.source": configuration.console.description, "error": "\(error)",
                "hint": "--console DIR names a folder with the console's index.html; without it linkd serves its built-in console",
            ])
            return nil
        }
    }

    private static func registerPoolGauges(_ pool: ConnectionPool, requests: ConnectionPool, in metrics: MetricsRegistry) {
        metrics.gauge("linkd_db_request_refusals_total",
                      help: "Request-thread database waits refused at once: no turn free, or the database stalled.") {
            [([:], Double(requests.statistics.refusedTotal))]
        }
        metrics.gauge("linkd_db_stalled", help: "1 while the database is taken as stalled: a request-thread wait timed out and it has not answered since.") {
            [([:], requests.statistics.stalled ? 1 : 0)]
        }
        metrics.gauge("linkd_db_pool_connections", help: "Pooled database connections by state.") {
            let stats = pool.statistics
            return [(["state": "in_use"], Double(stats.inUse)), (["state": "idle"], Double(stats.idle))]
        }
        metrics.gauge("linkd_db_pool_waits_total", help: "Connection acquisitions that had to wait for a free connection.") {
            [([:], Double(pool.statistics.waitsTotal))]
        }
        metrics.gauge("linkd_db_pool_timeouts_total", help: "Connection acquisitions that timed out.") {
            [([:], Double(pool.statistics.timeoutsTotal))]
        }
    }
}
