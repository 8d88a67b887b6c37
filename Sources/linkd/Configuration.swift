import Foundation
import LinkService
import HTTPServer
import Observability
import Postgres

/// The `serve` / `migrate` / `keys` / `workspaces` settings: the library's defaults, then each option of
/// `Configuration.options` given as a flag or, failing that, as its environment variable.
struct Configuration {
    /// What `Application` gets, holding the defaults of `ServiceConfiguration`, `ServerConfiguration` and
    /// `HitsConfiguration` until an option sets a field. Its `database` is known only once the database is open:
    /// `serviceConfiguration(database:)` fills it in.
    var service = ServiceConfiguration(server: ServerConfiguration(), database: ConnectionParameters())
    /// `DATABASE_URL`; nil means the embedded cluster under `dataDirectory`.
    var databaseURL: String?
    /// `LINKD_ANALYTICS_DATABASE_URL`: a replica for analytics reads; nil: the database itself.
    var analyticsDatabaseURL: String?
    var dataDirectory = URL(fileURLWithPath: ".linkd")
    var logLevel = Logger.Level.info

    /// The defaults: linkd serves its built-in console (the library's default is none).
    init() {
        service.console = .builtIn
    }

    /// Reads every option from its flag first, then from its environment variable.
    /// - Throws: `Arguments.UsageError` naming the bad value.
    init(_ arguments: Arguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        self.init()
        for option in Self.options {
            if option.repeatable, arguments.values(option.name).count > 1 {
                try option.apply(&self, arguments.values(option.name).joined(separator: ","))
            } else if let text = arguments.value(option.name, environment: option.environment, environment) {
                try option.apply(&self, text)
            }
        }
        service.migrateOnStart = !arguments.has("no-migrate")
    }

    /// The flags (without `--`) that take a value, for `Arguments`.
    static var valuedOptions: Set<String> { Set(options.map(\.name)) }

    /// The help text describing the options.
    static var optionsHelp: String { ConfigurationOption.helpText(options) }

    /// `--check-timeout`, in whole seconds: the outbound requests' limit.
    var checkTimeout: Int {
        get { Int(service.outbound.timeout.components.seconds) }
        set { service.outbound.timeout = .seconds(newValue) }
    }

    /// `--webhook-timeout`, in whole seconds.
    var webhookTimeout: Int {
        get { Int(service.webhooks.timeout.components.seconds) }
        set { service.webhooks.timeout = .seconds(newValue) }
    }

    /// `--webhook-secret-key`: the keys sealing webhook secrets; empty: the key file in the data folder.
    var webhookKeys: [WebhookSecretKeys.Key] = []

    /// The address `serve` listens on.
    var listen: (host: String, port: Int) {
        get { (service.server.host, service.server.port) }
        set { (service.server.host, service.server.port) = newValue }
    }

    /// The service configuration for the open database: the spool defaults to `<data-dir>/spool`.
    func serviceConfiguration(database: ConnectionParameters) throws -> ServiceConfiguration {
        var configuration = service
        configuration.database = database
        if let url = analyticsDatabaseURL {
            do {
                configuration.analyticsDatabase = try ConnectionParameters(url)
            } catch {
                throw Arguments.UsageError(description: "--analytics-database-url: \(error)")
            }
        }
        if configuration.hits.spoolDirectory == nil {
            configuration.hits.spoolDirectory = dataDirectory.appendingPathComponent("spool")
        }
        configuration.webhooks.keys = WebhookSecretKeys(webhookKeys.isEmpty ? [try WebhookKeyFile(dataDirectory).key()] : webhookKeys)
        return configuration
    }

    func makeLogger(label: String = "linkd") -> Logger {
        Logger(label: label, level: logLevel)
    }

    /// The migrations of `--migrations DIR`, else those built into linkd.
    func migrations() throws -> [Migration] {
        try service.migrationsDirectory.map(Migration.load(from:)) ?? Migration.builtIn()
    }
}
