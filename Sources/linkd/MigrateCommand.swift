import Foundation
import LinkService
import Observability
import Postgres

/// `linkd migrate`: apply pending migrations and exit (`--status` only reports).
enum MigrateCommand: Command {
    static let name = "migrate"
    static let summary = "apply pending database migrations"
    static let help = """
        Usage: linkd migrate [--status] [options]

        Applies every pending migration (those built into linkd, or those of --migrations DIR) in order,
        each in its own transaction, under an advisory lock (safe when several nodes start at once).
        With --status, only reports.

          --status               report pending migrations, change nothing

        \(Configuration.optionsHelp)
        """

    static func run(_ arguments: [String]) -> Int32 {
        let configuration: Configuration
        let statusOnly: Bool
        do {
            let parsed = try Arguments(arguments, valued: Configuration.valuedOptions, flags: ["status"])
            configuration = try Configuration(parsed)
            statusOnly = parsed.has("status")
        } catch {
            Output.err("linkd migrate: \(error)")
            return ExitStatus.usage
        }
        do {
            return try DatabaseBootstrap.withDatabase(configuration) { pool, migrator in
                if statusOnly {
                    switch try migrator.status(using: pool) {
                    case .current: Output.out("migrations: current (\(migrator.migrations.count) applied)")
                    case .pending(let versions): Output.out("migrations: pending \(versions.map(String.init).joined(separator: ", "))")
                    case .invalid(let error):
                        Output.out("migrations: inconsistent: \(error)")
                        return ExitStatus.failure
                    }
                    return ExitStatus.success
                }
                let applied = try migrator.migrate(using: pool)
                Output.out(
                    applied.isEmpty
                        ? "migrations: already current" : "migrations: applied \(applied.map(String.init).joined(separator: ", "))")
                return ExitStatus.success
            }
        } catch {
            Output.err("linkd migrate: \(error)")
            return ExitStatus.failure
        }
    }
}
