import Observability
import Outbound
import Postgres

extension Application {
    /// What each node keeps in memory (the catalog, keys, links) and the background services that keep it and write
    /// beside the requests, wired to each other: their group runs them in the order of `Services`.
    struct Background {
        let catalog: Catalog
        let keys: KeyCache
        /// People's sessions this node has checked (docs/PEOPLE.md, "Sessions").
        let sessions: SessionCache
        let reloader: CatalogReloader
        let links: LinkCache
        /// Every stored link, compactly, read after the change feed listens (docs/LINKS.md, "Serving links").
        let linkIndex: LinkIndex
        /// Rung by every write that queues webhook events; the delivery workers listen.
        let outbox: WebhookOutboxBell
        /// How request handlers' writes announce what they change; and bulk link writes', over their own pool.
        let catalogChanges: CatalogChanges
        let batchChanges: CatalogChanges
        let changes: ChangeFeed
        let fetches: AssociationFetchLog
        let hits: HitBatcher
        let tokens: ClickTokens
        /// The event pipeline `POST /v1/events` queues into (docs/EVENTS.md, "Storing").
        let events: EventBatcher
        let checker: HealthChecker
        let checkCounts: CheckCounts
        let cleanup: WebhookCleanup
        /// Sends invitations and password resets off the request threads (docs/PEOPLE.md, "Mail (SMTP)").
        let mailer: Mailer
        /// Started in order before the server listens, stopped in reverse after it.
        let group: ServiceGroup

        init(
            _ configuration: ServiceConfiguration, _ databases: Databases, outbound: HTTPClient, metrics: MetricsRegistry,
            logger: Logger
        ) throws {
            let pool = databases.pool
            // First, as it may throw (its spool directory), before anything else starts a thread or opens a connection.
            hits = try HitBatcher(
                pool: pool, configuration: configuration.hits, logger: logger.with(label: "linkd.hits"),
                stripes: metrics.stripes)
            hits.register(in: metrics)
            catalog = Catalog()
            catalog.register(in: metrics)
            keys = KeyCache()
            sessions = SessionCache(idle: configuration.sessions.idle)
            reloader = CatalogReloader(
                catalog: catalog, pool: pool, logger: logger.with(label: "linkd.catalog"),
                versions: AssociationVersionRecorder(keep: configuration.associationVersionsKeep))
            outbox = WebhookOutboxBell()
            let webhooks = configuration.webhooks
            let linkTaps = LinkClickCounter(
                pool: pool, logger: logger.with(label: "linkd.links"), outbox: outbox,
                clickEvents: .init(interval: webhooks.clickInterval, limit: webhooks.clickLimit))
            linkIndex = LinkIndex(pool: pool, budget: configuration.linkMemory << 20, logger: logger.with(label: "linkd.links"))
            links = LinkCache(
                pool: databases.requests, capacity: configuration.linkCacheSize, taps: linkTaps,
                index: configuration.linkMemory > 0 ? linkIndex : nil)
            var catalogChanges = CatalogChanges(pool: databases.requests, reloader: reloader, keys: keys, outbox: outbox, links: links)
            catalogChanges.sessions = sessions
            self.catalogChanges = catalogChanges
            batchChanges = CatalogChanges(pool: databases.batches, reloader: reloader, keys: keys, outbox: outbox, links: links)
            changes = ChangeFeed(
                parameters: configuration.database, reloader: reloader, keys: keys, sessions: sessions, links: links,
                logger: logger.with(label: "linkd.changes"))
            fetches = AssociationFetchLog(pool: pool, metrics: metrics, logger: logger.with(label: "linkd.fetches"))
            // The tokens' journal beside the hit spool, whose lock keeps it to one process (docs/LANDING.md).
            let journal = try configuration.hits.spoolDirectory.map {
                try ClickTokenJournal(directory: $0.appendingPathComponent("click-tokens"))
            }
            tokens = ClickTokens(
                pool: databases.requests, metrics: metrics, logger: logger.with(label: "linkd.tokens"), journal: journal)
            // Attribution resolves URLs as clicks do, with a resolver (and answer cache) of its own on the writer thread.
            events = try EventBatcher(
                pool: pool,
                attributor: EventAttributor(
                    resolver: Resolver(catalog: catalog, cacheSize: 1024, stripes: metrics.stripes, links: links)),
                tokens: tokens, spoolDirectory: configuration.hits.spoolDirectory?.appendingPathComponent("events"),
                flushInterval: configuration.hits.flushInterval, logger: logger.with(label: "linkd.events"))
            events.register(in: metrics)
            checker = HealthChecker(
                pool: pool, catalog: catalog, client: outbound, outbound: configuration.outbound,
                logger: logger.with(label: "linkd.checks"), outbox: outbox)
            checkCounts = CheckCounts(minimumAge: .seconds(min(10, max(1, configuration.checkInterval))))
            checkCounts.register(in: metrics)
            let checks = HealthChecks(
                checker: checker, counts: checkCounts, interval: configuration.checkInterval, metrics: metrics,
                logger: logger.with(label: "linkd.checks"))
            let deliveries = WebhookDeliveries(
                pool: pool, client: outbound, configuration: webhooks, outbox: outbox, metrics: metrics,
                logger: logger.with(label: "linkd.webhooks"))
            cleanup = WebhookCleanup(pool: pool, retentionDays: webhooks.retentionDays, logger: logger.with(label: "linkd.webhooks"))
            let conversions = ConversionWebhooks(pool: pool, logger: logger.with(label: "linkd.events"), outbox: outbox)
            let retention = EventRetention(
                pool: pool, retentionDays: configuration.eventsRetentionDays, logger: logger.with(label: "linkd.events"))
            mailer = Mailer(settings: Self.smtpSettings(configuration), metrics: metrics, logger: logger.with(label: "linkd.mail"))
            group = ServiceGroup(
                (changes, linkIndex, fetches, hits, tokens, events, linkTaps, checks, deliveries, cleanup, conversions, retention, mailer)
                    as Services,
                logger: logger.with(label: "linkd.services"))
        }

        /// The SMTP settings, trusting the checks' CA file (`--check-ca-file`) when the mail's has none.
        private static func smtpSettings(_ configuration: ServiceConfiguration) -> SMTPSettings {
            var settings = configuration.smtp
            settings.caFile = settings.caFile ?? configuration.outbound.caFile
            return settings
        }
    }
}
