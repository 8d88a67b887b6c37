import Foundation
import LinkKit

/// `linkd aasa validate|match|decide`: lint an AASA file, explain which app opens a URL, or answer conformance
/// suites one JSON line at a time.
enum AASACommand: Command {
    static let name = "aasa"
    static let summary = "validate an apple-app-site-association file, match URLs against it"
    static let help = """
        Usage:
          linkd aasa validate FILE [--json]
              Lint FILE ('-' = stdin): errors and warnings with JSON pointers. Exit 1 when there are errors.
          linkd aasa match FILE URL [--app APPID] [--json]
              Which app opens URL, through which rule, with the rules tried.
          linkd aasa decide
              Read JSON lines {"id", "aasa", "domain", "appId", "url"} from stdin; write one line per input:
              {"id", "decision": "match"|"exclude"|"no_match", "detailIndex", "componentIndex"} or {"id", "error"}.

        Exit status: 0 worked, 1 invalid input, 2 usage error.
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let subcommand = arguments.first else {
            Output.err("linkd aasa: a subcommand is needed\n\n\(help)")
            return ExitStatus.usage
        }
        let rest = Array(arguments.dropFirst())
        return ExitStatus.of("linkd aasa \(subcommand)") {
            switch subcommand {
            case "validate": return try validate(Arguments(rest, flags: ["json"]))
            case "match": return try match(Arguments(rest, valued: ["app"], flags: ["json"]))
            case "decide": return try decide(Arguments(rest))
            case "bench": return try bench(Arguments(rest, valued: ["rounds", "seconds", "passes"], flags: ["resolve-only", "hostile"]))
            default:
                Output.err("linkd aasa: unknown subcommand '\(subcommand)'\n\n\(help)")
                return ExitStatus.usage
            }
        }
    }

    /// The text of FILE, or of stdin for `-`.
    static func readInput(_ path: String) throws -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputError(description: "cannot read '\(path)'")
        }
        return data
    }

    struct InputError: Error, CustomStringConvertible {
        let description: String
    }
}
