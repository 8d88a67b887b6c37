import Foundation
import Testing
import TestSupport

/// The option table (`linkd options`): the names, variables and defaults scripts and deployments rely on, the
/// environment fallback, and docs/CONFIGURATION.md written from it.
@Suite("linkd configuration options")
struct ConfigurationOptionsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every option as operators use it: flag, environment variable, default. Changing one breaks someone's
    /// deployment, so it changes here on purpose or not at all.
    static let published: [(flag: String, variable: String, default: String)] = [
        ("--listen HOST:PORT", "LINKD_LISTEN", "127.0.0.1:8080"),
        ("--database-url URL", "DATABASE_URL", "a private PostgreSQL cluster under --data-dir"),
        ("--analytics-database-url URL", "LINKD_ANALYTICS_DATABASE_URL", "the database itself"),
        ("--threads N", "LINKD_THREADS", "2"),
        ("--data-dir DIR", "LINKD_DATA_DIR", "./.linkd"),
        ("--log-level LEVEL", "LINKD_LOG_LEVEL", "info"),
        ("--access-log on|off", "LINKD_ACCESS_LOG", "on"),
        ("--migrations DIR", "LINKD_MIGRATIONS_DIR", "the migrations built into linkd"),
        ("--cors-origins LIST", "LINKD_CORS_ORIGINS", "CORS off"),
        ("--aasa-max-age SECONDS", "LINKD_AASA_MAX_AGE", "3600"),
        ("--public-resolve on|off", "LINKD_PUBLIC_RESOLVE", "off"),
        ("--resolve-cache N", "LINKD_RESOLVE_CACHE", "4096"),
        ("--link-cache N", "LINKD_LINK_CACHE", "100000"),
        ("--link-memory N", "LINKD_LINK_MEMORY", "256"),
        ("--association-versions-keep N", "LINKD_ASSOCIATION_VERSIONS_KEEP", "100"),
        ("--spool-dir DIR", "LINKD_SPOOL_DIR", "<data-dir>/spool"),
        ("--hits-retention-days N", "LINKD_HITS_RETENTION_DAYS", "90"),
        ("--events-retention-days N", "LINKD_EVENTS_RETENTION_DAYS", "90"),
        ("--event-key-rate-limit N", "LINKD_EVENT_KEY_RATE_LIMIT", "60000"),
        ("--event-address-rate-limit N", "LINKD_EVENT_ADDRESS_RATE_LIMIT", "120"),
        ("--geoip-db FILE", "LINKD_GEOIP_DB", "no countries"),
        ("--connection-limit N", "LINKD_CONNECTION_LIMIT", "1024"),
        ("--header-timeout SECONDS", "LINKD_HEADER_TIMEOUT", "10"),
        ("--body-timeout SECONDS", "LINKD_BODY_TIMEOUT", "30"),
        ("--body-min-rate N", "LINKD_BODY_MIN_RATE", "240"),
        ("--idle-timeout SECONDS", "LINKD_IDLE_TIMEOUT", "30"),
        ("--trusted-proxies LIST", "LINKD_TRUSTED_PROXIES", "none"),
        ("--api-hostname HOST", "LINKD_API_HOSTNAME", "none"),
        ("--session-idle SECONDS", "LINKD_SESSION_IDLE", "43200"),
        ("--session-lifetime SECONDS", "LINKD_SESSION_LIFETIME", "2592000"),
        ("--public-url URL", "LINKD_PUBLIC_URL", "http://localhost:<port of --listen>"),
        ("--console DIR|off", "LINKD_CONSOLE_DIR", "the console built into linkd"),
        ("--apple-cdn-url URL", "LINKD_APPLE_CDN_URL", "https://app-site-association.cdn-apple.com/a/v1/"),
        ("--google-dal-url URL", "LINKD_GOOGLE_DAL_URL", "https://digitalassetlinks.googleapis.com/v1/statements:list"),
        ("--check-resolve HOST:PORT:ADDR", "LINKD_CHECK_RESOLVE", "none"),
        ("--check-ca-file FILE", "LINKD_CHECK_CA_FILE", "the system's CA certificates"),
        ("--check-timeout SECONDS", "LINKD_CHECK_TIMEOUT", "10"),
        ("--check-interval SECONDS", "LINKD_CHECK_INTERVAL", "21600"),
        ("--webhook-secret-key ID:BASE64", "LINKD_WEBHOOK_SECRET_KEY", "a key kept in <data-dir>/webhook-secret.key"),
        ("--webhook-allow-http on|off", "LINKD_WEBHOOK_ALLOW_HTTP", "off"),
        ("--webhook-allow-private LIST", "LINKD_WEBHOOK_ALLOW_PRIVATE", "none: public addresses only"),
        ("--webhook-timeout SECONDS", "LINKD_WEBHOOK_TIMEOUT", "10"),
        ("--webhook-failure-limit N", "LINKD_WEBHOOK_FAILURE_LIMIT", "13"),
        ("--webhook-retention-days N", "LINKD_WEBHOOK_RETENTION_DAYS", "30"),
        ("--webhook-click-interval SECONDS", "LINKD_WEBHOOK_CLICK_INTERVAL", "60"),
        ("--webhook-click-limit N", "LINKD_WEBHOOK_CLICK_LIMIT", "100"),
        ("--webhook-subscription-limit N", "LINKD_WEBHOOK_SUBSCRIPTION_LIMIT", "20"),
        ("--sso-allow-http on|off", "LINKD_SSO_ALLOW_HTTP", "off"),
        ("--sso-allow-private LIST", "LINKD_SSO_ALLOW_PRIVATE", "none: public addresses only"),
        ("--smtp-url URL", "LINKD_SMTP_URL", "no mail"),
        ("--smtp-from ADDRESS", "LINKD_SMTP_FROM", "linkd@localhost"),
        ("--smtp-starttls required|try|off", "LINKD_SMTP_STARTTLS", "required"),
    ]

    @Test func optionsKeepTheirNamesVariablesAndDefaults() throws {
        let help = try LinkdProcess.run(["options"])
        #expect(help.status == 0)
        let rows = help.stdout.split(separator: "\n").filter { $0.hasPrefix("  --") }.map { String($0.dropFirst(2)) }
        #expect(rows == Self.published.map { "\($0.flag)  \($0.variable)  default: \($0.default)" })
    }

    @Test func everyCommandThatReadsTheOptionsListsThemAll() throws {
        let options = try LinkdProcess.run(["options"]).stdout
        for command in ["serve", "migrate", "keys", "users", "workspaces"] {
            let help = try LinkdProcess.run([command, "--help"]).stdout
            #expect(help.contains(options.trimmingCharacters(in: .newlines)), "\(command)")
        }
    }

    /// docs/CONFIGURATION.md's table is what `linkd options --markdown` prints: run scripts/config-docs after
    /// changing an option.
    @Test func theReferenceMatchesTheTable() throws {
        let document = try String(contentsOf: Self.repository.appendingPathComponent("docs/CONFIGURATION.md"), encoding: .utf8)
        let begin = try #require(document.range(of: "<!-- options: begin -->\n"))
        let end = try #require(document.range(of: "<!-- options: end -->"))
        let generated = try LinkdProcess.run(["options", "--markdown"])
        #expect(generated.status == 0)
        #expect(String(document[begin.upperBound..<end.lowerBound]) == generated.stdout, "run scripts/config-docs")
    }

    @Test(
        "a bad value in an option's environment variable is a usage error naming the option",
        arguments: [
            ("LINKD_THREADS", "0", "threads"), ("LINKD_RESOLVE_CACHE", "lots", "resolve-cache"),
            ("LINKD_ACCESS_LOG", "maybe", "access-log"),
            ("LINKD_IDLE_TIMEOUT", "86401", "idle-timeout"), ("LINKD_LOG_LEVEL", "loud", "log-level"),
            ("LINKD_LISTEN", "nowhere", "listen"),
            ("LINKD_TRUSTED_PROXIES", "caddy", "trusted-proxies"), ("LINKD_HITS_RETENTION_DAYS", "0", "hits-retention-days"),
            ("LINKD_EVENTS_RETENTION_DAYS", "3651", "events-retention-days"),
            ("LINKD_APPLE_CDN_URL", "ftp://mirror.example.com/", "apple-cdn-url"),
            ("LINKD_GOOGLE_DAL_URL", "https://dal.example.com/v1?x=1", "google-dal-url"), ("LINKD_CHECK_TIMEOUT", "0", "check-timeout"),
            ("LINKD_SMTP_URL", "http://mail.example.com", "smtp-url"), ("LINKD_SMTP_FROM", "linkd", "smtp-from"),
            ("LINKD_SMTP_STARTTLS", "maybe", "smtp-starttls"),
        ])
    func environmentFallback(variable: String, value: String, option: String) throws {
        let result = try LinkdProcess.run(["serve"], environment: [variable: value])
        #expect(result.status == 2)
        #expect(result.stderr.contains("linkd serve: \(option) must be "), "\(result.stderr)")
        #expect(result.stderr.contains("not '\(value)'"))
    }

    @Test func aFlagWinsOverItsVariableAndAnEmptyVariableIsAbsent() throws {
        // The flag's good value replaces the variable's bad one, so parsing reaches the bad option after it.
        let flag = try LinkdProcess.run(
            ["serve", "--resolve-cache", "5", "--api-hostname", "*.example.com"],
            environment: ["LINKD_RESOLVE_CACHE": "lots"])
        #expect(flag.status == 2)
        #expect(flag.stderr.contains("api-hostname must be"), "\(flag.stderr)")
        let empty = try LinkdProcess.run(["serve", "--api-hostname", "*.example.com"], environment: ["LINKD_THREADS": ""])
        #expect(empty.stderr.contains("api-hostname must be"), "\(empty.stderr)")
    }

    /// `--check-resolve` takes HOST:PORT:ADDR entries, from repeated flags or one comma-separated value, and names
    /// the first entry of another shape.
    @Test(arguments: [
        (["--check-resolve", "links.example.com:443"], "links.example.com:443"),
        (["--check-resolve", "links.example.com:443:127.0.0.1,cdn.example.com:443:localhost"], "cdn.example.com:443:localhost"),
        // Repeated: every value is read, not only the last.
        (
            ["--check-resolve", "links.example.com:99999:127.0.0.1", "--check-resolve", "links.example.com:443:127.0.0.1"],
            "links.example.com:99999:127.0.0.1"
        ),
    ])
    func checkResolveEntriesAreValidated(arguments: [String], bad: String) throws {
        let result = try LinkdProcess.run(["serve"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("check-resolve entry '\(bad)' is not HOST:PORT:ADDR"), "\(result.stderr)")
    }
}
