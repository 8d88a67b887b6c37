import Foundation
import LinkService
import HTTPServer
import LinkKit
import Observability

/// The `serve` / `migrate` / `keys` settings, from flags with environment fallbacks.
struct Configuration {
    var listenHost = "127.0.0.1"
    var listenPort = 8080
    /// `DATABASE_URL`; nil means the embedded cluster under `dataDirectory`.
    var databaseURL: String?
    var threads = 2
    var dataDirectory = URL(fileURLWithPath: ".linkd")
    var logLevel = Logger.Level.info
    var migrationsDirectory: URL?
    var migrateOnStart = true
    /// `LINKD_SPOOL_DIR`; nil means `<dataDirectory>/spool`.
    var spoolDirectory: URL?
    var hitsRetentionDays = 90
    /// Browser origins allowed to call the API; empty: CORS off.
    var corsOrigins: [String] = []
    /// `Cache-Control: public, max-age=` of the association files, in seconds.
    var associationMaxAge = 3600
    /// `/v1/resolve` without an API key.
    var publicResolve = false
    /// `--resolve-cache N` / `LINKD_RESOLVE_CACHE`: resolve answers kept for URLs asked again.
    var resolveCacheSize = 4096
    /// `--access-log` / `LINKD_ACCESS_LOG`: one log line per HTTP request.
    var accessLog = true
    /// `--connection-limit N` / `LINKD_CONNECTION_LIMIT`: open HTTP connections kept (docs/CONNECTIONS.md).
    var connectionLimit = 1024
    /// `--header-timeout`, `--body-timeout`, `--idle-timeout` (seconds; `LINKD_HEADER_TIMEOUT`, ...).
    var headerTimeout = 10
    var bodyTimeout = 30
    var idleTimeout = 30
    /// `--trusted-proxies LIST` / `LINKD_TRUSTED_PROXIES`: peers whose forwarding headers name the client.
    var trustedProxies = TrustedProxies()
    /// `--api-hostname HOST` / `LINKD_API_HOSTNAME`: the API's name behind a TLS front end, lower-case.
    var apiHostname: String?
    /// `--console DIR|off` / `LINKD_CONSOLE_DIR`: the console's files; nil: the `console/` folder found beside the binary.
    var consoleDirectory: URL?
    var consoleEnabled = true

    /// The options every database-using command accepts, for `Arguments`.
    static let valuedOptions: Set<String> = [
        "listen", "database-url", "threads", "data-dir", "log-level", "migrations", "cors-origins", "aasa-max-age", "public-resolve",
        "resolve-cache", "access-log", "spool-dir", "hits-retention-days", "connection-limit", "header-timeout", "body-timeout",
        "idle-timeout", "trusted-proxies", "api-hostname", "console",
    ]

    /// The help text describing those options.
    static let optionsHelp = """
        Options (flag, environment variable, default):
          --listen HOST:PORT     LINKD_LISTEN      127.0.0.1:8080 ([::1]:8080 for IPv6, 0.0.0.0:8080 for all)
          --database-url URL     DATABASE_URL      unset: run a private PostgreSQL cluster under --data-dir
          --threads N            LINKD_THREADS     2 (HTTP worker threads)
          --data-dir DIR         LINKD_DATA_DIR    ./.linkd (embedded PostgreSQL data, socket and log; as root, when the
                                 postgres user cannot enter DIR, the cluster goes to /var/lib/linkd/<hash> instead)
          --log-level LEVEL      LINKD_LOG_LEVEL   info (trace, debug, info, notice, warning, error, critical)
          --access-log on|off    LINKD_ACCESS_LOG  on (one "request" line per HTTP request, at info; off behind a logging proxy)
          --migrations DIR       LINKD_MIGRATIONS_DIR  the migrations/ folder of the source tree
          --cors-origins LIST    LINKD_CORS_ORIGINS    unset: CORS off. Comma-separated browser origins allowed to call
                                 the API, e.g. https://dash.example.com,http://localhost:3000 ('*': any, without credentials)
          --aasa-max-age SECONDS LINKD_AASA_MAX_AGE    3600 (Cache-Control max-age of the association files)
          --public-resolve on|off  LINKD_PUBLIC_RESOLVE  off (on: /v1/resolve answers without an API key)
          --resolve-cache N      LINKD_RESOLVE_CACHE   4096 (answers kept for URLs resolved or clicked again; 0: off)
          --spool-dir DIR        LINKD_SPOOL_DIR   <data-dir>/spool (hits kept while the database is down)
          --hits-retention-days N  LINKD_HITS_RETENTION_DAYS  90 (raw hits; older daily partitions are dropped)
          --connection-limit N   LINKD_CONNECTION_LIMIT  1024 (open HTTP connections; beyond it the oldest idle or
                                 unfinished one is closed to make room, or the new one gets 503 when all are busy)
          --header-timeout SECONDS  LINKD_HEADER_TIMEOUT  10 (request line and headers, from the accept or the
                                 request line; trickling bytes does not extend it; 0: none)
          --body-timeout SECONDS LINKD_BODY_TIMEOUT  30 (a request body, from the end of its headers; 0: none)
          --idle-timeout SECONDS LINKD_IDLE_TIMEOUT  30 (a keep-alive connection between requests, or a response
                                 the client does not read; 0: none)
          --trusted-proxies LIST LINKD_TRUSTED_PROXIES  unset: none. Comma-separated addresses and CIDR ranges of the
                                 proxies in front (e.g. 127.0.0.1,10.0.0.0/8,fd00::/8) whose X-Forwarded-For /
                                 Forwarded and X-Forwarded-Proto name the client (docs/DEPLOYMENT.md)
          --api-hostname HOST    LINKD_API_HOSTNAME    unset. The API's hostname behind a TLS front end: /v1/tls/ask
                                 allows a certificate for it as for the link domains
          --console DIR|off      LINKD_CONSOLE_DIR     the console/ folder beside the binary (the web console at
                                 /console/ on hosts that are not link domains; off: none; docs/CONSOLE.md)
        """

    /// Reads flags first, then the environment.
    /// - Throws: `Arguments.UsageError` naming the bad value.
    init(_ arguments: Arguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let listen = arguments.value("listen", environment: "LINKD_LISTEN", environment) {
            (listenHost, listenPort) = try Self.parseListen(listen)
        }
        databaseURL = arguments.value("database-url", environment: "DATABASE_URL", environment)
        if let threads = arguments.value("threads", environment: "LINKD_THREADS", environment) {
            guard let value = Int(threads), (1...256).contains(value) else {
                throw Arguments.UsageError(description: "threads must be a number from 1 to 256, not '\(threads)'")
            }
            self.threads = value
        }
        if let directory = arguments.value("data-dir", environment: "LINKD_DATA_DIR", environment) {
            dataDirectory = URL(fileURLWithPath: directory)
        }
        if let level = arguments.value("log-level", environment: "LINKD_LOG_LEVEL", environment) {
            guard let value = Logger.Level(name: level) else {
                throw Arguments.UsageError(description: "unknown log level '\(level)'")
            }
            logLevel = value
        }
        if let directory = arguments.value("migrations", environment: "LINKD_MIGRATIONS_DIR", environment) {
            migrationsDirectory = URL(fileURLWithPath: directory)
        }
        if let directory = arguments.value("spool-dir", environment: "LINKD_SPOOL_DIR", environment) {
            spoolDirectory = URL(fileURLWithPath: directory)
        }
        if let days = arguments.value("hits-retention-days", environment: "LINKD_HITS_RETENTION_DAYS", environment) {
            guard let value = Int(days), (1...3650).contains(value) else {
                throw Arguments.UsageError(description: "hits-retention-days must be a number from 1 to 3650, not '\(days)'")
            }
            hitsRetentionDays = value
        }
        if let value = arguments.value("access-log", environment: "LINKD_ACCESS_LOG", environment) {
            accessLog = try Self.parseSwitch(value, name: "access-log")
        }
        if let list = arguments.value("trusted-proxies", environment: "LINKD_TRUSTED_PROXIES", environment) {
            guard let parsed = TrustedProxies(parsing: list) else {
                throw Arguments.UsageError(description: "trusted-proxies must be comma-separated addresses or CIDR ranges (10.0.0.0/8, fd00::/8), not '\(list)'")
            }
            trustedProxies = parsed
        }
        if let host = arguments.value("api-hostname", environment: "LINKD_API_HOSTNAME", environment) {
            guard let name = try? Hostname(host), !name.isWildcard else {
                throw Arguments.UsageError(description: "api-hostname must be a hostname such as api.example.com, not '\(host)'")
            }
            apiHostname = name.rawValue
        }
        if let console = arguments.value("console", environment: "LINKD_CONSOLE_DIR", environment) {
            if console.lowercased() == "off" { consoleEnabled = false } else { consoleDirectory = URL(fileURLWithPath: console) }
        }
        migrateOnStart = !arguments.has("no-migrate")
        if let origins = arguments.value("cors-origins", environment: "LINKD_CORS_ORIGINS", environment) {
            corsOrigins = try Self.parseOrigins(origins)
        }
        if let maxAge = arguments.value("aasa-max-age", environment: "LINKD_AASA_MAX_AGE", environment) {
            guard let seconds = Int(maxAge), (0...604_800).contains(seconds) else {
                throw Arguments.UsageError(description: "aasa-max-age must be a number of seconds from 0 to 604800, not '\(maxAge)'")
            }
            associationMaxAge = seconds
        }
        if let value = arguments.value("public-resolve", environment: "LINKD_PUBLIC_RESOLVE", environment) {
            publicResolve = try Self.parseSwitch(value, name: "public-resolve")
        }
        if let limit = arguments.value("connection-limit", environment: "LINKD_CONNECTION_LIMIT", environment) {
            guard let value = Int(limit), (1...1_000_000).contains(value) else {
                throw Arguments.UsageError(description: "connection-limit must be a number of connections from 1 to 1000000, not '\(limit)'")
            }
            connectionLimit = value
        }
        headerTimeout = try Self.parseSeconds(arguments, "header-timeout", environment: "LINKD_HEADER_TIMEOUT", environment) ?? headerTimeout
        bodyTimeout = try Self.parseSeconds(arguments, "body-timeout", environment: "LINKD_BODY_TIMEOUT", environment) ?? bodyTimeout
        idleTimeout = try Self.parseSeconds(arguments, "idle-timeout", environment: "LINKD_IDLE_TIMEOUT", environment) ?? idleTimeout
        if let size = arguments.value("resolve-cache", environment: "LINKD_RESOLVE_CACHE", environment) {
            guard let value = Int(size), (0...1_000_000).contains(value) else {
                throw Arguments.UsageError(description: "resolve-cache must be a number of answers from 0 to 1000000, not '\(size)'")
            }
            resolveCacheSize = value
        }
    }

    /// A timeout in whole seconds, 0 (none) to 86400, from flag `name` or `variable`; nil when neither is set.
    static func parseSeconds(_ arguments: Arguments, _ name: String, environment variable: String,
                             _ environment: [String: String]) throws -> Int? {
        guard let text = arguments.value(name, environment: variable, environment) else { return nil }
        guard let seconds = Int(text), (0...86_400).contains(seconds) else {
            throw Arguments.UsageError(description: "\(name) must be a number of seconds from 0 to 86400, not '\(text)'")
        }
        return seconds
    }

    /// An on/off setting: `on`, `true`, `yes`, `1` or `off`, `false`, `no`, `0`, in any case.
    static func parseSwitch(_ value: String, name: String) throws -> Bool {
        switch value.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw Arguments.UsageError(description: "\(name) must be on or off (true or false), not '\(value)'")
        }
    }

    /// The hit pipeline settings.
    var hitsConfiguration: HitsConfiguration {
        HitsConfiguration(
            spoolDirectory: spoolDirectory ?? dataDirectory.appendingPathComponent("spool"),
            retentionDays: hitsRetentionDays
        )
    }

    /// `host:port`, `[v6]:port`.
    static func parseListen(_ text: String) throws -> (String, Int) {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw Arguments.UsageError(description: "listen address '\(text)' is not [IPv6]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw Arguments.UsageError(description: "listen address '\(text)' is not HOST:PORT")
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard let number = Int(port), (0...65535).contains(number), !host.isEmpty else {
            throw Arguments.UsageError(description: "listen address '\(text)' is not HOST:PORT with a port from 0 to 65535")
        }
        return (String(host), number)
    }

    /// `https://a.example,http://localhost:3000`: each entry `scheme://host[:port]` or `*`; blanks are skipped.
    static func parseOrigins(_ text: String) throws -> [String] {
        let origins = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for origin in origins where !ServiceConfiguration.isValidCORSOrigin(origin) {
            throw Arguments.UsageError(description: "CORS origin '\(origin)' is not scheme://host[:port] (without a path) or '*'")
        }
        return origins
    }

    func makeLogger(label: String = "linkd") -> Logger {
        Logger(label: label, level: logLevel)
    }

    /// The migrations folder, configured or found beside the build.
    func resolvedMigrationsDirectory() throws -> URL {
        if let migrationsDirectory { return migrationsDirectory }
        if let found = Migration.defaultDirectory() { return found }
        throw Arguments.UsageError(description: "cannot find the migrations folder; pass --migrations DIR or set LINKD_MIGRATIONS_DIR")
    }

    /// The console folder to serve: configured, else found beside the build; nil when off or not found.
    var resolvedConsoleDirectory: URL? {
        guard consoleEnabled else { return nil }
        return consoleDirectory ?? ServiceConfiguration.defaultConsoleDirectory()
    }

    var serverConfiguration: ServerConfiguration {
        var server = ServerConfiguration()
        server.host = listenHost
        server.port = listenPort
        server.threads = threads
        server.connectionLimit = connectionLimit
        server.headerTimeout = headerTimeout
        server.bodyTimeout = bodyTimeout
        server.connectionTimeout = idleTimeout
        server.trustedProxies = trustedProxies
        return server
    }
}
