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

          --no-migrate           do not apply pending migrations at start

        \(Configuration.optionsHelp)
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
        let termination = SignalWaiter() // before the start: a signal sent meanwhile is answered after it
        let application: Application
        do {
            let service = try configuration.serviceConfiguration(database: database.parameters)
            application = try Application(configuration: service, logger: logger)
            try application.start()
        } catch {
            logger.critical("cannot start", metadata: ["error": "\(error)"])
            Output.err("linkd serve: \(error)")
            return ExitStatus.failure
        }
        let signal = termination.wait()
        logger.info("shutting down", metadata: ["signal": "\(signal)"])
        application.shutdown()
        return ExitStatus.success
    }
}
