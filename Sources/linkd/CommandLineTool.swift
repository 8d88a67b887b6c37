import Foundation

/// Dispatches `linkd <command> ...` to the registered commands.
enum CommandLineTool {
    /// Every subcommand, in the order `linkd --help` lists them.
    static let commands: [any Command.Type] = [
        ServeCommand.self,
        MigrateCommand.self,
        KeysCommand.self,
        UsersCommand.self,
        WorkspacesCommand.self,
        AASACommand.self,
        AssetLinksCommand.self,
        CodegenCommand.self,
        LinksCommand.self,
        OptionsCommand.self,
    ]

    static func run(_ arguments: [String]) -> Int32 {
        guard let first = arguments.first, first != "--help", first != "-h", first != "help" else {
            Output.out(overview)
            return arguments.isEmpty ? ExitStatus.usage : ExitStatus.success
        }
        guard let command = commands.first(where: { $0.name == first }) else {
            Output.err("linkd: unknown command '\(first)'\n\n\(overview)")
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            Output.out(command.help)
            return ExitStatus.success
        }
        return command.run(rest)
    }

    static var overview: String {
        var text =
            "linkd: self-hosted deep-link management (AASA, assetlinks, resolve, analytics)\n\nUsage: linkd <command> [options]\n\nCommands:\n"
        for command in commands {
            text += "  " + command.name.padding(toLength: 12, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nRun 'linkd <command> --help' for a command's options."
        return text
    }
}
