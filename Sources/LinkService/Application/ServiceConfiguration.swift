import Foundation
import HTTPServer
import Observability
import Outbound
import Postgres

/// Everything `Application.init` needs, already parsed and validated by the command line.
public struct ServiceConfiguration: Sendable {
    /// The HTTP listener: address, port, worker threads, limits.
    public var server: ServerConfiguration
    /// Where PostgreSQL is.
    public var database: ConnectionParameters
    /// Largest number of pooled database connections.
    public var databasePoolSize: Int
    /// Where analytics reads go (`/v1/analytics/*`): a streaming replica of `database`; nil: `database` itself.
    public var analyticsDatabase: ConnectionParameters?
    /// The longest an HTTP worker waits on the database: for a connection, then for each statement's answer
    /// (`BoundedWaits`); past it the request answers 503 with `Retry-After` (docs/FAULTS.md).
    public var databaseRequestTimeout: Duration = .seconds(2)
    /// A folder of numbered SQL files (`--migrations`); nil: the `migrations/` built into linkd (`Migration.builtIn`).
    public var migrationsDirectory: URL?
    /// Apply pending migrations at start (`linkd serve --no-migrate` turns it off).
    public var migrateOnStart: Bool
    /// The hit pipeline: batching, spool directory, retention.
    public var hits: HitsConfiguration
    /// Days raw events are kept, by the time they happened (`--events-retention-days`; docs/EVENTS.md, "Retention"):
    /// older ones are deleted hourly by `EventRetention`.
    public var eventsRetentionDays: Int = 90
    /// Requests a minute `POST /v1/events` takes from one publishable app key (`--event-key-rate-limit`; docs/EVENTS.md,
    /// "Who may send"), whatever address sends them; past it, 429 until the minute ends.
    public var eventKeyRequestsPerMinute: Int = 60_000
    /// Requests a minute `POST /v1/events` takes with app keys from one client address (`--event-address-rate-limit`).
    public var eventAddressRequestsPerMinute: Int = 120
    /// `Cache-Control: public, max-age=…` of the association files, in seconds.
    public var associationMaxAge: Int = 3600
    /// Let `/v1/resolve` answer without an API key (the URL's host then decides the workspace).
    public var publicResolve: Bool = false
    /// Resolve answers kept in memory for URLs asked again (`ResolveCache`); 0 turns the cache off.
    public var resolveCacheSize: Int = 4096
    /// Stored links kept in memory (`LinkCache`); a link not kept costs one indexed query when asked.
    public var linkCacheSize: Int = 100_000
    /// MiB the compact copy of every stored link may hold (`LinkIndex`); the links of a domain that does not fit are
    /// read from the database when not kept. 0: none is held.
    public var linkMemory: Int = 256
    /// Versions of each domain's association files kept (`association_versions`); the current one is always kept.
    public var associationVersionsKeep: Int = 100
    /// Browser origins allowed to call the API (`https://dash.example.com`, or `*` for any; never with credentials).
    /// Empty: CORS is off and browsers keep cross-origin responses from scripts. Each entry must pass
    /// `isValidCORSOrigin(_:)`.
    public var corsOrigins: [String] = []
    /// One `request` log line (info) per HTTP request. On by default; operators behind a logging proxy may turn
    /// it off, since formatting and writing the line is a large share of a cheap request's cost (bench/serving).
    public var accessLog: Bool = true
    /// The hostname the API is reached at through a TLS front end (`--api-hostname`), lower-case: `/v1/tls/ask`
    /// allows a certificate for it as for the link domains. nil: only link domains get one.
    public var apiHostname: String?
    /// The console's files (docs/CONSOLE.md), served at `/console/` on hosts that are not link domains.
    public var console = ConsoleSource.off

    /// Where the console's files come from.
    public enum ConsoleSource: Sendable, Equatable, CustomStringConvertible {
        /// The `console/` built into linkd.
        case builtIn
        /// A folder holding an `index.html` (`--console DIR`); one without is logged at start and not served.
        case directory(URL)
        case off

        /// As the log says it: `built-in`, the folder's path, `off`.
        public var description: String {
            switch self {
            case .builtIn: "built-in"
            case .directory(let directory): directory.path
            case .off: "off"
            }
        }
    }
    /// Where the association health checks may send requests (Apple's CDN, Google's API, resolve overrides, CA
    /// file, timeout; docs/HEALTH.md).
    public var outbound = OutboundConfiguration()
    /// Seconds between two background association checks of a domain, spread over the interval (docs/HEALTH.md,
    /// "Checks"); 0 turns the background checks off (checks on demand still run).
    public var checkInterval: Int = 6 * 3600
    /// Webhook delivery: the keys sealing secrets, where targets may be, timeouts, retries, retention and
    /// `link.clicked` coalescing (docs/WEBHOOKS.md).
    public var webhooks = WebhookConfiguration()
    /// How single sign-on reaches identity providers (docs/PEOPLE.md, "Single sign-on").
    public var sso = SSOConfiguration()
    /// Mail for invitations and password resets (`--smtp-url`, `--smtp-from`, `--smtp-starttls`; docs/PEOPLE.md,
    /// "Mail (SMTP)"); no mail while its `url` is nil.
    public var smtp = SMTPSettings()
    /// How long an invitation's link works, in seconds.
    public var invitationLifetime: Int = 7 * 86_400
    /// People's sessions: lifetimes, sign-in throttling, the base of one-time links (docs/PEOPLE.md).
    public var sessions = SessionConfiguration()
    /// Chart.js for the console's charts, as Debian's `libjs-chart.js` installs it; served when it exists.
    public var chartJS: URL? = URL(fileURLWithPath: "/usr/share/javascript/chart.js/chart.min.js")

    public init(
        server: ServerConfiguration,
        database: ConnectionParameters,
        databasePoolSize: Int = 8,
        migrationsDirectory: URL? = nil,
        migrateOnStart: Bool = true,
        hits: HitsConfiguration = HitsConfiguration()
    ) {
        self.server = server
        self.database = database
        self.databasePoolSize = databasePoolSize
        self.migrationsDirectory = migrationsDirectory
        self.migrateOnStart = migrateOnStart
        self.hits = hits
    }

    /// Whether `text` is an origin `corsOrigins` accepts: `scheme://host[:port]` (no path) or `*`.
    public static func isValidCORSOrigin(_ text: String) -> Bool {
        CORSMiddleware.normalize(text) != nil
    }
}
