import Foundation
import Observability
import Outbound
import UserAgents

extension Application {
    /// Every endpoint group, in the order the router tries templates (a literal segment before a parameter at the
    /// same place: android-manifest before {language}); the console's last, when it is served. With them, the
    /// authentication the router checks their scopes with, and the click handler that answers every other request.
    static func endpointGroups(
        _ configuration: ServiceConfiguration, _ databases: Databases, _ background: Background,
        probe: DatabaseProbe, outbound: HTTPClient, metrics: MetricsRegistry, logger: Logger
    )
        -> (groups: [any EndpointGroup], auth: Authenticator, clicks: ClickHandler)
    {
        let requests = databases.requests
        let auth = Authenticator(pool: requests, cache: background.keys, sessions: background.sessions)
        let (catalog, hits, tokens) = (background.catalog, background.hits, background.tokens)
        let changes = background.catalogChanges
        let resolver = Resolver(
            catalog: catalog, cacheSize: configuration.resolveCacheSize, stripes: metrics.stripes,
            links: background.links)
        let agents = UserAgentCache(stripes: metrics.stripes, parser: userAgentParser(configuration.hits, logger: logger))
        let clicks = ClickHandler(resolver: resolver, hits: hits, agents: agents, tokens: tokens)
        let issuer = SessionIssuer(configuration: configuration.sessions)
        let providers = OpenIDProviders(client: outbound, configuration: configuration.sso)
        let origin = PublicOrigin(publicURL: configuration.sessions.publicURL, apiHostname: configuration.apiHostname)
        let mailer = background.mailer
        var groups: [any EndpointGroup] = [
            ServiceHandlers(
                probe: probe, hits: hits, catalog: catalog, changes: background.changes, services: background.group,
                metrics: metrics, logger: logger, clicks: clicks, apiHostname: configuration.apiHostname),
            AssociationHandlers(
                catalog: catalog, fetches: background.fetches, maxAge: configuration.associationMaxAge,
                varyOrigin: !configuration.corsOrigins.isEmpty),
            ResolveHandlers(resolver: resolver, auth: auth, hits: hits, agents: agents, isPublic: configuration.publicResolve),
            LinkBuildHandlers(catalog: catalog),
            LinkBatchHandlers(pool: requests, changes: background.batchChanges, resolver: resolver),
            LinkHandlers(pool: requests, changes: changes),
            DomainFileHandlers(catalog: catalog),
            AssociationVersionHandlers(pool: requests),
            HealthHandlers(
                pool: requests, checker: background.checker.using(requests), counts: background.checkCounts,
                maxOnDemand: max(1, configuration.server.threads / 2)),
            TLSAskHandlers(catalog: catalog, apiHostname: configuration.apiHostname),
            AuditHandlers(pool: requests),
            KeyHandlers(pool: requests, changes: changes),
            SessionHandlers(
                pool: requests, auth: auth, changes: changes, issuer: issuer,
                throttle: SignInThrottle(
                    perAccount: configuration.sessions.failuresPerAccount,
                    perAddress: configuration.sessions.failuresPerAddress,
                    window: configuration.sessions.throttleWindow)),
            TeamHandlers(changes: changes),
            AppHandlers(changes: changes),
            AndroidManifestHandlers(pool: requests, catalog: catalog),
            DestinationHandlers(changes: changes),
            DomainHandlers(pool: requests, changes: changes),
            RuleHandlers(pool: requests, changes: changes),
            CodegenHandlers(pool: requests, resolver: resolver),
            AnalyticsHandlers(pool: databases.analytics),
            ClaimHandlers(tokens: tokens, resolver: resolver, hits: hits, agents: agents),
            EventHandlers(
                pool: requests, auth: auth, events: background.events,
                limit: EventRateLimit(
                    perKey: configuration.eventKeyRequestsPerMinute, perAddress: configuration.eventAddressRequestsPerMinute)),
            AppEventKeyHandlers(pool: requests),
            EventSettingsHandlers(pool: requests),
            EventExportHandlers(pool: requests),
            EventErasureHandlers(pool: requests),
            QRHandlers(resolver: resolver),
            WebhookHandlers(
                pool: requests, changes: changes, configuration: configuration.webhooks,
                cleanup: background.cleanup),
            SSOHandlers(pool: requests, providers: providers, keys: configuration.webhooks.keys, origin: origin),
            SSOSignInHandlers(
                pool: requests, providers: providers, keys: configuration.webhooks.keys, configuration: configuration.sso,
                issuer: issuer, origin: origin),
            MemberHandlers(pool: requests, changes: changes),
            InvitationHandlers(
                pool: requests, mailPool: databases.pool, mailer: mailer, origin: origin,
                lifetime: configuration.invitationLifetime, issuer: issuer),
            PasswordResetHandlers(mailPool: databases.pool, mailer: mailer, origin: origin, logger: logger.with(label: "linkd.mail")),
        ]
        if let files = consoleFiles(configuration, logger: logger) {
            groups.append(ConsoleHandlers(files: files, catalog: catalog, clicks: clicks))
        }
        return (groups, auth, clicks)
    }

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
            logger.info(
                "console served at /console/",
                metadata: [
                    "console.source": configuration.console.description,
                    "console.files": "\(files.files.count)",
                ])
            return files
        } catch {
            logger.error(
                "console not served: /console/ answers 404",
                metadata: [
                    "console.source": configuration.console.description, "error": "\(error)",
                    "hint": "--console DIR names a folder with the console's index.html; without it linkd serves its built-in console",
                ])
            return nil
        }
    }
}
