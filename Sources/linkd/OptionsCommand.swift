/// `linkd options`: the configuration options of `serve`, `migrate`, `keys` and `workspaces`, as the help
/// shows them or (`--markdown`) as the table of docs/CONFIGURATION.md.
enum OptionsCommand: Command {
    static let name = "options"
    static let summary = "list the configuration options, their environment variables and defaults"
    static let help = """
        Usage: linkd options [--markdown]

        Lists every option of serve, migrate, keys and workspaces with its environment variable and
        default. With --markdown, prints the table docs/CONFIGURATION.md holds (scripts/config-docs
        writes it there).
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            let parsed = try Arguments(arguments, flags: ["markdown"])
            guard parsed.positionals.isEmpty else { throw Arguments.UsageError(description: "options takes no arguments") }
            Output.out(parsed.has("markdown") ? ConfigurationOption.markdownTable(Configuration.options) : Configuration.optionsHelp)
            return ExitStatus.success
        } catch {
            Output.err("linkd options: \(error)")
            return ExitStatus.usage
        }
    }
}
