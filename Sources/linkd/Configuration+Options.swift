import Foundation
import HTTPServer
import LinkKit
import LinkService
import Observability
import Outbound

extension Configuration {
    /// Every option, in the order the help and docs/CONFIGURATION.md list them (docs/DESIGN.md, "Adding a
    /// configuration option").
    static let options: [ConfigurationOption] = [
        ConfigurationOption(
            "listen", "LINKD_LISTEN", .listenAddress, \.listen,
            help: "The address and port to serve HTTP on: [::1]:8080 for IPv6, 0.0.0.0:8080 for all interfaces."),
        ConfigurationOption(
            "database-url", "DATABASE_URL", .text("URL"), \.databaseURL,
            unset: "a private PostgreSQL cluster under --data-dir",
            help: "The PostgreSQL to use, as a postgresql:// URI or libpq keyword string."),
        ConfigurationOption(
            "analytics-database-url", "LINKD_ANALYTICS_DATABASE_URL", .text("URL"), \.analyticsDatabaseURL,
            unset: "the database itself",
            help: "A streaming replica of the database for the analytics reads (/v1/analytics/*), as a postgresql:// URI "
                + "or libpq keyword string."),
        ConfigurationOption(
            "threads", "LINKD_THREADS", .integer(in: 1...256), \.service.server.threads,
            help: "HTTP worker threads, and as many threads for the requests that wait on the database."),
        ConfigurationOption(
            "data-dir", "LINKD_DATA_DIR", .directory, \.dataDirectory,
            help: "The embedded PostgreSQL's data, socket and log. As root, when the postgres user cannot enter "
                + "it, the cluster goes to /var/lib/linkd/<hash> instead."),
        ConfigurationOption(
            "log-level", "LINKD_LOG_LEVEL", .choice(Logger.Level.allCases.map { ($0.name, $0) }, placeholder: "LEVEL"),
            \.logLevel, help: "The lowest level logged."),
        ConfigurationOption(
            "access-log", "LINKD_ACCESS_LOG", .onOff, \.service.accessLog,
            help: "One \"request\" line per HTTP request, at info; off behind a logging proxy."),
        ConfigurationOption(
            "migrations", "LINKD_MIGRATIONS_DIR", .directory, \.service.migrationsDirectory,
            unset: "the migrations built into linkd",
            help: "A folder of numbered SQL migrations to apply instead of those built into linkd."),
        ConfigurationOption(
            "cors-origins", "LINKD_CORS_ORIGINS", .corsOrigins, \.service.corsOrigins, unset: "CORS off",
            help: "Comma-separated browser origins allowed to call the API, e.g. "
                + "https://dash.example.com,http://localhost:3000 ('*': any, without credentials)."),
        ConfigurationOption(
            "aasa-max-age", "LINKD_AASA_MAX_AGE", .seconds(in: 0...604_800), \.service.associationMaxAge,
            help: "The Cache-Control max-age of the association files."),
        ConfigurationOption(
            "public-resolve", "LINKD_PUBLIC_RESOLVE", .onOff, \.service.publicResolve,
            help: "on: /v1/resolve answers without an API key."),
        ConfigurationOption(
            "resolve-cache", "LINKD_RESOLVE_CACHE", .integer(in: 0...1_000_000, of: "answers"), \.service.resolveCacheSize,
            help: "Answers kept for URLs resolved or clicked again; 0: off."),
        ConfigurationOption(
            "link-cache", "LINKD_LINK_CACHE", .integer(in: 0...10_000_000, of: "links"), \.service.linkCacheSize,
            help: "Stored links (and slugs known to hold none) kept in memory; others are read from the database."),
        ConfigurationOption(
            "link-memory", "LINKD_LINK_MEMORY", .integer(in: 0...1_048_576, of: "MiB"), \.service.linkMemory,
            help: "MiB for every stored link held compactly, read at start; a domain beyond it is read from the database. 0: off."),
        ConfigurationOption(
            "association-versions-keep", "LINKD_ASSOCIATION_VERSIONS_KEEP", .integer(in: 1...100_000, of: "versions"),
            \.service.associationVersionsKeep,
            help: "Versions of each domain's association files kept (the current one always)."),
        ConfigurationOption(
            "spool-dir", "LINKD_SPOOL_DIR", .directory, \.service.hits.spoolDirectory, unset: "<data-dir>/spool",
            help: "Where hits are kept while the database is down."),
        ConfigurationOption(
            "hits-retention-days", "LINKD_HITS_RETENTION_DAYS", .integer(in: 1...3650, of: "days"), \.service.hits.retentionDays,
            help: "Days raw hits are kept; older daily partitions are dropped."),
        ConfigurationOption(
            "events-retention-days", "LINKD_EVENTS_RETENTION_DAYS", .integer(in: 1...3650, of: "days"),
            \.service.eventsRetentionDays,
            help: "Days raw events (installs, opens, named events) are kept, by the time they happened; older ones are deleted hourly."),
        ConfigurationOption(
            "event-key-rate-limit", "LINKD_EVENT_KEY_RATE_LIMIT", .integer(in: 1...100_000_000, of: "requests a minute"),
            \.service.eventKeyRequestsPerMinute,
            help: "Requests a minute POST /v1/events takes from one publishable app key; past it, 429 until the minute ends."),
        ConfigurationOption(
            "event-address-rate-limit", "LINKD_EVENT_ADDRESS_RATE_LIMIT", .integer(in: 1...100_000_000, of: "requests a minute"),
            \.service.eventAddressRequestsPerMinute,
            help: "Requests a minute POST /v1/events takes with app keys from one client address; past it, 429 until the minute ends."),
        ConfigurationOption(
            "geoip-db", "LINKD_GEOIP_DB", .text("FILE"), \.service.hits.geoIPDatabase, unset: "no countries",
            help: "A MaxMind DB file (GeoLite2 Country or DB-IP Lite Country) the hits' countries are read from; "
                + "serve refuses to start when it cannot be read (docs/HITS.md)."),
        ConfigurationOption(
            "connection-limit", "LINKD_CONNECTION_LIMIT", .integer(in: 1...1_000_000, of: "connections"),
            \.service.server.connectionLimit,
            help: "Open HTTP connections; beyond it the oldest idle or unfinished one is closed to make room, or "
                + "the new one gets 503 when all are busy (docs/CONNECTIONS.md)."),
        ConfigurationOption(
            "header-timeout", "LINKD_HEADER_TIMEOUT", .seconds(in: 0...86_400), \.service.server.headerTimeout,
            help: "A request line and headers, from the accept or the request line; trickling bytes does not "
                + "extend it; 0: none."),
        ConfigurationOption(
            "body-timeout", "LINKD_BODY_TIMEOUT", .seconds(in: 0...86_400), \.service.server.bodyTimeout,
            help: "A request body, from the end of its headers; 0: none."),
        ConfigurationOption(
            "body-min-rate", "LINKD_BODY_MIN_RATE", .integer(in: 0...1_000_000_000, of: "bytes a second"),
            \.service.server.bodyMinimumRate,
            help: "What a request body must average once it has taken 5 s; a slower one is closed, as a late "
                + "header is; 0: none (docs/CONNECTIONS.md)."),
        ConfigurationOption(
            "idle-timeout", "LINKD_IDLE_TIMEOUT", .seconds(in: 0...86_400), \.service.server.connectionTimeout,
            help: "A keep-alive connection between requests, or a response the client does not read; 0: none."),
        ConfigurationOption(
            "trusted-proxies", "LINKD_TRUSTED_PROXIES", .trustedProxies, \.service.server.trustedProxies,
            help: "Comma-separated addresses and CIDR ranges of the proxies in front (e.g. "
                + "127.0.0.1,10.0.0.0/8,fd00::/8) whose X-Forwarded-For / Forwarded and X-Forwarded-Proto "
                + "name the client (docs/DEPLOYMENT.md)."),
        ConfigurationOption(
            "api-hostname", "LINKD_API_HOSTNAME", .apiHostname, \.service.apiHostname, unset: "none",
            help: "The API's hostname behind a TLS front end: /v1/tls/ask allows a certificate for it as for "
                + "the link domains."),
        ConfigurationOption(
            "session-idle", "LINKD_SESSION_IDLE", .seconds(in: 60...31_536_000), \.service.sessions.idle,
            help: "A person's session ends after this long without a request (docs/PEOPLE.md, \"Sessions\")."),
        ConfigurationOption(
            "session-lifetime", "LINKD_SESSION_LIFETIME", .seconds(in: 60...31_536_000), \.service.sessions.lifetime,
            help: "A person's session ends this long after signing in, however busy."),
        ConfigurationOption(
            "public-url", "LINKD_PUBLIC_URL", .publicURL, \.service.sessions.publicURL,
            unset: "http://localhost:<port of --listen>",
            help: "Where people reach linkd (https://links-admin.example.com): the base of the one-time links "
                + "that set a password, as linkd users create prints them."),
        ConfigurationOption(
            "console", "LINKD_CONSOLE_DIR", .console, \.service.console, unset: "the console built into linkd",
            help: "A folder of the web console's files to serve at /console/ (on hosts that are not link domains) "
                + "instead of the built-in one; off: none (docs/CONSOLE.md)."),
        ConfigurationOption(
            "apple-cdn-url", "LINKD_APPLE_CDN_URL", .outboundBase, \.service.outbound.appleCDNBase,
            help: "Apple's CDN for the health checks: <url><host> is the association file iOS gets; http for "
                + "tests and mirrors (docs/HEALTH.md)."),
        ConfigurationOption(
            "google-dal-url", "LINKD_GOOGLE_DAL_URL", .outboundBase, \.service.outbound.googleDALBase,
            help: "Google's Digital Asset Links API (statements:list) for the health checks; http for tests "
                + "and mirrors."),
        ConfigurationOption(
            "check-resolve", "LINKD_CHECK_RESOLVE", .resolveOverrides, \.service.outbound.resolve, repeatable: true,
            help: "HOST:PORT:ADDR (curl's --resolve): the checks connect to ADDR for HOST:PORT instead of asking "
                + "DNS; repeat the flag or separate with commas; [::1] for IPv6."),
        ConfigurationOption(
            "check-ca-file", "LINKD_CHECK_CA_FILE", .text("FILE"), \.service.outbound.caFile,
            unset: "the system's CA certificates", help: "PEM CA certificates the checks' TLS trusts instead."),
        ConfigurationOption(
            "check-timeout", "LINKD_CHECK_TIMEOUT", .seconds(in: 1...300), \.checkTimeout,
            help: "The longest one outbound check request may take, connection included."),
        ConfigurationOption(
            "check-interval", "LINKD_CHECK_INTERVAL", .seconds(in: 0...604_800), \.service.checkInterval,
            help: "Seconds between two background association checks of a domain, spread over the interval; 0: off."),
        ConfigurationOption(
            "webhook-secret-key", "LINKD_WEBHOOK_SECRET_KEY", .webhookKeys, \.webhookKeys,
            unset: "a key kept in <data-dir>/webhook-secret.key",
            repeatable: true,
            help: "ID:BASE64 of 32 random bytes (openssl rand -base64 32) sealing webhook secrets at rest; the first "
                + "seals, the others only open what they sealed (rotation). Every node needs the same keys (docs/WEBHOOKS.md)."),
        ConfigurationOption(
            "webhook-allow-http", "LINKD_WEBHOOK_ALLOW_HTTP", .onOff, \.service.webhooks.allowHTTP,
            help: "on: webhook targets may be plain http (tests, private networks); off: https only."),
        ConfigurationOption(
            "webhook-allow-private", "LINKD_WEBHOOK_ALLOW_PRIVATE", .addressRanges("webhook-allow-private"),
            \.service.webhooks.allowedRanges,
            unset: "none: public addresses only", repeatable: true,
            help: "Comma-separated CIDR ranges webhook targets may resolve to although loopback, private, "
                + "link-local or metadata (e.g. 10.1.0.0/16); checked when a subscription is made and at each delivery."),
        ConfigurationOption(
            "webhook-timeout", "LINKD_WEBHOOK_TIMEOUT", .seconds(in: 1...300), \.webhookTimeout,
            help: "The longest one webhook delivery may take, connection included."),
        ConfigurationOption(
            "webhook-failure-limit", "LINKD_WEBHOOK_FAILURE_LIMIT", .integer(in: 1...1000, of: "failures"),
            \.service.webhooks.failureLimit,
            help: "Consecutive failed deliveries that disable a subscription (13: retried for more than a day)."),
        ConfigurationOption(
            "webhook-retention-days", "LINKD_WEBHOOK_RETENTION_DAYS", .integer(in: 1...3650, of: "days"),
            \.service.webhooks.retentionDays, help: "Days delivered webhook events stay in the delivery log."),
        ConfigurationOption(
            "webhook-click-interval", "LINKD_WEBHOOK_CLICK_INTERVAL", .seconds(in: 1...86_400), \.service.webhooks.clickInterval,
            help: "Seconds of a link's taps coalesced into one link.clicked event."),
        ConfigurationOption(
            "webhook-click-limit", "LINKD_WEBHOOK_CLICK_LIMIT", .integer(in: 1...100_000, of: "events"),
            \.service.webhooks.clickLimit,
            help: "link.clicked events a node queues per interval at most (the links tapped most); the others wait."),
        ConfigurationOption(
            "webhook-subscription-limit", "LINKD_WEBHOOK_SUBSCRIPTION_LIMIT", .integer(in: 1...10_000, of: "subscriptions"),
            \.service.webhooks.subscriptionLimit,
            help: "Webhook subscriptions a workspace may have at most; creating one more answers 409."),
        ConfigurationOption(
            "sso-allow-http", "LINKD_SSO_ALLOW_HTTP", .onOff, \.service.sso.allowHTTP,
            help: "on: single sign-on issuers may be plain http (tests, private networks); off: https only."),
        ConfigurationOption(
            "sso-allow-private", "LINKD_SSO_ALLOW_PRIVATE", .addressRanges("sso-allow-private"),
            \.service.sso.allowedRanges,
            unset: "none: public addresses only", repeatable: true,
            help: "Comma-separated CIDR ranges single sign-on providers may resolve to although loopback, private, "
                + "link-local or metadata (a provider inside your network); checked at each connection (docs/PEOPLE.md)."),
        ConfigurationOption(
            "smtp-url", "LINKD_SMTP_URL", .smtpURL, \.service.smtp.url, unset: "no mail",
            help: "The SMTP server that mails invitations and password resets: smtp://[USER:PASSWORD@]HOST[:PORT] "
                + "(STARTTLS as --smtp-starttls says) or smtps://… (TLS from the start); prefer the variable when it "
                + "holds a password (docs/PEOPLE.md)."),
        ConfigurationOption(
            "smtp-from", "LINKD_SMTP_FROM", .mailAddress, \.service.smtp.from,
            help: "The address linkd's mail is sent from."),
        ConfigurationOption(
            "smtp-starttls", "LINKD_SMTP_STARTTLS",
            .choice([("required", .required), ("try", .ifOffered), ("off", .off)], placeholder: "required|try|off"),
            \.service.smtp.startTLS,
            help: "For smtp:// URLs: required (no mail unless the server upgrades to TLS), try (TLS when offered: "
                + "open to a downgrade) or off (plain text, for a relay on the same host)."),
    ]
}

extension OptionKind where Value == String {
    /// An smtp:// or smtps:// URL with a host.
    static var smtpURL: Self {
        .parsed("URL", expecting: "an smtp:// or smtps:// URL with a host", { SMTPSettings.isValidURL($0) ? $0 : nil }, format: { $0 })
    }

    /// A mail address (name@example.com).
    static var mailAddress: Self {
        .parsed("ADDRESS", expecting: "a mail address (name@example.com)", { Mail.isAddress($0) ? $0 : nil }, format: { $0 })
    }
}

extension OptionKind where Value == [WebhookSecretKeys.Key] {
    /// Comma-separated `ID:BASE64` keys of 32 bytes.
    static var webhookKeys: Self {
        .parsed(
            "ID:BASE64", expecting: "comma-separated ID:BASE64 keys of 32 bytes",
            { text in
                let keys = try text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map {
                    entry in
                    guard let key = WebhookSecretKeys.Key(entry) else {
                        throw Arguments.UsageError(
                            description: "webhook-secret-key entry '\(entry.prefix(12))…' is not ID:BASE64 of 32 bytes "
                                + "(an id of letters, digits, '.', '_' or '-')")
                    }
                    return key
                }
                guard Set(keys.map(\.id)).count == keys.count else {
                    throw Arguments.UsageError(description: "webhook-secret-key names a key id twice")
                }
                return keys
            }, format: { $0.isEmpty ? "" : "(\($0.count) keys)" })
    }
}

extension OptionKind where Value == [CIDR] {
    /// Comma-separated CIDR ranges (`10.0.0.0/8`, `fd00::/8`) of the option `option`, which a refusal names.
    static func addressRanges(_ option: String) -> Self {
        .parsed(
            "LIST", expecting: "comma-separated CIDR ranges (10.0.0.0/8, fd00::/8)",
            { text in
                try text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { entry in
                    do { return try CIDR(entry) } catch { throw Arguments.UsageError(description: "\(option): \(error)") }
                }
            }, format: { $0.map(\.description).joined(separator: ",") })
    }
}

extension OptionKind where Value == (host: String, port: Int) {
    /// `host:port` or `[v6]:port`.
    static var listenAddress: Self {
        .parsed(
            "HOST:PORT", expecting: "HOST:PORT or [IPv6]:PORT with a port from 0 to 65535",
            { text in
                let host: Substring, port: Substring
                if text.hasPrefix("[") {
                    guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
                    host = text[text.index(after: text.startIndex)..<close]
                    port = text[text.index(close, offsetBy: 2)...]
                } else {
                    guard let colon = text.lastIndex(of: ":") else { return nil }
                    (host, port) = (text[..<colon], text[text.index(after: colon)...])
                }
                guard let number = Int(port), (0...65535).contains(number), !host.isEmpty else { return nil }
                return (String(host), number)
            }, format: { $0.host.contains(":") ? "[\($0.host)]:\($0.port)" : "\($0.host):\($0.port)" })
    }
}

extension OptionKind where Value == [String] {
    /// Browser origins, each `scheme://host[:port]` or `*`.
    static var corsOrigins: Self {
        .list(of: "LIST", isValid: ServiceConfiguration.isValidCORSOrigin) {
            "CORS origin '\($0)' is not scheme://host[:port] (without a path) or '*'"
        }
    }
}

extension OptionKind where Value == TrustedProxies {
    static var trustedProxies: Self {
        .parsed(
            "LIST", expecting: "comma-separated addresses or CIDR ranges (10.0.0.0/8, fd00::/8)",
            TrustedProxies.init(parsing:), format: { $0.isEmpty ? "" : "\($0)" })
    }
}

extension OptionKind where Value == String {
    /// A hostname (no wildcard), lower-cased.
    static var apiHostname: Self {
        .parsed(
            "HOST", expecting: "a hostname such as api.example.com",
            { text in
                guard let name = try? Hostname(text), !name.isWildcard else { return nil }
                return name.rawValue
            }, format: { $0 })
    }
}

extension OptionKind where Value == String {
    /// An http(s) URL without query or fragment, kept without a trailing `/`.
    static var publicURL: Self {
        .parsed(
            "URL", expecting: "an http:// or https:// URL such as https://links-admin.example.com",
            { text in
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                    url.host?.isEmpty == false, url.query == nil, url.fragment == nil, url.user == nil
                else { return nil }
                var text = text
                while text.hasSuffix("/") { text.removeLast() }
                return text
            }, format: { $0 })
    }
}

extension OptionKind where Value == ServiceConfiguration.ConsoleSource {
    /// A directory, or `off`.
    static var console: Self {
        .parsed(
            "DIR|off", expecting: "a directory or off",
            { text in
                text.lowercased() == "off" ? .off : .directory(URL(fileURLWithPath: text))
            },
            format: { source in
                source == .builtIn ? "" : source.description
            })
    }
}

extension OptionKind where Value == OutboundBase {
    /// An http or https URL the checks send requests under.
    static var outboundBase: Self {
        .parsed("URL", expecting: "an http or https URL without user, query or fragment", OutboundBase.init, format: \.description)
    }
}

extension OptionKind where Value == [ResolveOverride] {
    /// Comma-separated `HOST:PORT:ADDR` entries.
    static var resolveOverrides: Self {
        .parsed(
            "HOST:PORT:ADDR", expecting: "comma-separated HOST:PORT:ADDR entries",
            { text in
                try text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { entry in
                    guard let override = ResolveOverride(entry) else {
                        throw Arguments.UsageError(
                            description: "check-resolve entry '\(entry)' is not HOST:PORT:ADDR (a host name, a "
                                + "port from 1 to 65535, a numeric IPv4 or [IPv6] address)")
                    }
                    return override
                }
            }, format: { $0.map(\.description).joined(separator: ",") })
    }
}
