import Foundation
import HTTPServer
import Observability
import Outbound
import Postgres

/// The running service: constructs and injects every part, starts them in order and stops them in reverse.
///
/// Start order: pool → migrations → the background services (`ServiceGroup`: change feed, which loads the catalog
/// whole and keeps it current by LISTEN → fetch log → hit writer → click tokens → … → association checks → webhook deliveries → webhook cleanup) → HTTP
/// → recording the association versions the load found (`CatalogReloader.startRecording`). Stop order: HTTP
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
    /// The event pipeline `POST /v1/events` queues into (docs/EVENTS.md, "Storing").
    let events: EventBatcher
    /// The event pipeline's counters now (accepted, written, queued, spooled), as `/metrics` gives them.
    public var eventCounters: HitCounters { events.counters }
    /// Outbound HTTP for the association health checks, each request allowed by
    /// `OutboundTargets(configuration.outbound, linkHosts:)` (docs/HEALTH.md, "Outbound HTTP").
    let outbound: HTTPClient
    /// Every write that changes what nodes keep, and the events it queues, commits through it.
    let catalogChanges: CatalogChanges
    /// Every stored link, compactly (`LinkIndex`).
    let linkIndex: LinkIndex
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

    /// Builds the application without starting anything that listens, in steps: the stripes, the pools, what is kept
    /// in memory with the background services, the endpoints, the router and the server.
    /// - Throws: `MigrationError` when the migrations directory is unreadable or malformed, `HitPipelineError`
    ///   when the spool directory cannot be created or is used by another process, a file error when the
    ///   console folder is configured but unreadable or without `index.html`, `OutboundFailure` when the checks'
    ///   CA file cannot be read.
    public init(configuration: ServiceConfiguration, logger: Logger) throws {
        self.configuration = configuration
        self.logger = logger
        // Requests that would wait on the database run on handoff threads, never on the workers (docs/FAULTS.md).
        // The stripes of every per-thread value and cache: one for each worker and each thread beside them that
        // records (the handoff's, the server's own and the background services').
        let handoff = Handoff(threads: configuration.server.threads)
        metrics = MetricsRegistry(
            threads: configuration.server.threads + handoff.threads + Server.backgroundThreads
                + ServiceGroup.threads(of: Services.self))
        outbound = try HTTPClient(
            settings: configuration.outbound.clientSettings, logger: logger.with(label: "linkd.outbound"),
            metrics: metrics)
        let databases = Databases(configuration, handoff: handoff, metrics: metrics, logger: logger)
        (pool, requestPool, analyticsPool) = (databases.pool, databases.requests, databases.replica)
        migrator = Migrator(
            migrations: try configuration.migrationsDirectory.map(Migration.load(from:)) ?? Migration.builtIn(),
            logger: logger.with(label: "linkd.migrate"))
        let background = try Background(configuration, databases, outbound: outbound, metrics: metrics, logger: logger)
        (catalog, hits, tokens, events, catalogChanges, services) =
            (background.catalog, background.hits, background.tokens, background.events, background.catalogChanges, background.group)
        linkIndex = background.linkIndex
        probe = DatabaseProbe(pool: pool, migrator: migrator)

        let (groups, auth, clicks) = Self.endpointGroups(
            configuration, databases, background, probe: probe, outbound: outbound, metrics: metrics,
            logger: logger)
        let openAPI = OpenAPIHandlers(describing: groups)
        openAPIDocument = openAPI.body
        endpoints = (groups + [openAPI]).flatMap(\.endpoints)
        router = Self.router(
            configuration, routing: endpoints, auth: auth, fallback: clicks, handoff: handoff, metrics: metrics,
            logger: logger)
        var server = configuration.server
        server.routeBodyLimits += groups.flatMap(\.endpoints).compactMap { endpoint in
            endpoint.maxBodyBytes.map {
                RouteBodyLimit(method: endpoint.method, path: endpoint.path, maxBytes: max($0, server.maxBodyBytes))
            }
        }
        self.server = Server(
            configuration: server, responder: router, logger: logger.with(label: "linkd.http"), metrics: metrics,
            handoff: handoff)
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
        // Ready now: the association versions the catalog load found are recorded from here on, off the path to ready.
        catalogChanges.reloader.startRecording()
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
    typealias Services = (
        ChangeFeed, LinkIndex, AssociationFetchLog, HitBatcher, ClickTokens, EventBatcher, LinkClickCounter, HealthChecks,
        WebhookDeliveries, WebhookCleanup, ConversionWebhooks, EventRetention, Mailer
    )

    /// Every endpoint behind its middleware (CORS when origins are configured), the rest (clicks) to `fallback`.
    private static func router(
        _ configuration: ServiceConfiguration, routing endpoints: [Endpoint], auth: Authenticator,
        fallback clicks: ClickHandler, handoff: Handoff, metrics: MetricsRegistry, logger: Logger
    ) -> Router {
        var routes = RouterBuilder()
        if !configuration.corsOrigins.isEmpty {
            routes.use(CORSMiddleware(allowedOrigins: configuration.corsOrigins))
        }
        routes.add(endpoints, auth: auth)
        routes.fallback { try clicks.handle($0) }
        return Router(
            routes, logger: logger.with(label: "linkd.http"), metrics: metrics, accessLog: configuration.accessLog,
            handoff: handoff)
    }
}
