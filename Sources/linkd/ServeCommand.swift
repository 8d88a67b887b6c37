import Foundation
import LinkService
import Observability

/// `linkd serve`: migrate, then serve HTTP until SIGTERM/SIGINT; then stop in reverse order.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "run the HTTP service (embedded PostgreSQL unless DATABASE_URL is set)"
    static let help = """
        Usage: linkd serve [options]

        Serves the API, the association files and resolve. Without DATABASE_URL it runs its own
        PostgreSQL cluster under --data-dir (initialised on first start, unix socket only) and stops it
        on exit. Pending migrations are applied at start unless --no-migrate is given.

        \(Configuration.optionsHelp)
          --no-migrate                             do not apply pending migrations at start
        """

    static func run(_ arguments: [String]) -> Int32 {
        let configuration: Configuration
        do {
            configuration = try Configuration(Arguments(arguments, valued: Configuration.valuedOptions, flags: ["no-migrate"]))
        } catch {
            Output.err("linkd serve: \(error)")
            return ExitStatus.usage
        }
        let logger = configuration.makeLogger()
        let database: DatabaseBootstrap
        do {
            database = try DatabaseBootstrap(configuration: configuration, logger: logger, stopsAdoptedServer: true)
        } catch {
            logger.critical("cannot open the database", metadata: ["error": "\(error)"])
            Output.err("linkd serve: \(error)")
            return ExitStatus.failure
        }
        defer { database.close() }
        let application: Application
        do {
            var service = ServiceConfiguration(
                server: configuration.serverConfiguration,
                database: database.parameters,
                migrationsDirectory: try configuration.resolvedMigrationsDirectory(),
                migrateOnStart: configuration.migrateOnStart,
                hits: configuration.hitsConfiguration
            )
            service.corsOrigins = configuration.corsOrigins
            service.associationMaxAge = configuration.associationMaxAge
            service.publicResolve = configuration.publicResolve
            service.resolveCacheSize = configuration.resolveCacheSize
            service.accessLog = configuration.accessLog
            service.apiHostname = configuration.apiHostname
            service.consoleDirectory = configuration.resolvedConsoleDirectory
            application = try Application(configuration: service, logger: logger)
            try application.start()
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            Output.err("linkd serve: \(error)")
            return ExitStatus.failure
        }
        let signal = SignalWaiter.waitForTermination()
        logger.info("shutting down", metadata: ["signal": "\(signal)"])
        application.shutdown()
        return ExitStatus.success
    }
}
