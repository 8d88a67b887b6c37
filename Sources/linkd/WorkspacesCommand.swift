import Foundation
import HTTPServer
import LinkService

/// `linkd workspaces`: the hostname suffixes each workspace may register domains under.
enum WorkspacesCommand: Command {
    static let name = "workspaces"
    static let summary = "restrict workspaces to hostname suffixes (workspaces allow-suffix NAME SUFFIX)"
    static let help = """
        Usage: linkd workspaces list [NAME] [options]
               linkd workspaces allow-suffix NAME SUFFIX [options]
               linkd workspaces remove-suffix NAME SUFFIX [options]

        A workspace without suffixes may register any hostname as a link domain. Once it has one or more,
        it may register only hostnames equal to or under one of them (SUFFIX example.com allows example.com,
        links.example.com and *.example.com, not badexample.com); POST /v1/domains answers 422 for others.
        Domains registered before a restriction keep working. Removing the last suffix lifts the restriction.
        Each command prints the workspace's suffixes afterwards, one workspace a line.

          list [NAME]                  every workspace (or NAME) with its suffixes
          allow-suffix NAME SUFFIX     allow NAME to register hostnames under SUFFIX
          remove-suffix NAME SUFFIX    take SUFFIX off NAME's list

        \(Configuration.optionsHelp)
        """

    private enum Action {
        case list(String?)
        case allow(String, String)
        case remove(String, String)
    }

    static func run(_ arguments: [String]) -> Int32 {
        let configuration: Configuration
        let action: Action
        do {
            let parsed = try Arguments(arguments, valued: Configuration.valuedOptions)
            switch parsed.positionals.first {
            case "list" where parsed.positionals.count <= 2:
                action = .list(parsed.positionals.count == 2 ? parsed.positionals[1] : nil)
            case "allow-suffix" where parsed.positionals.count == 3:
                action = .allow(parsed.positionals[1], parsed.positionals[2])
            case "remove-suffix" where parsed.positionals.count == 3:
                action = .remove(parsed.positionals[1], parsed.positionals[2])
            default:
                throw Arguments.UsageError(description: "expected 'list [NAME]', 'allow-suffix NAME SUFFIX' or 'remove-suffix NAME SUFFIX'")
            }
            configuration = try Configuration(parsed)
        } catch {
            Output.err("linkd workspaces: \(error)\n\n\(help)")
            return ExitStatus.usage
        }
        do {
            let listings = try DatabaseBootstrap.withMigratedDatabase(configuration) { pool in
                switch action {
                case .list(let workspace): return try WorkspaceHostSuffixes.list(workspace: workspace, pool: pool)
                case .allow(let workspace, let suffix): return [try WorkspaceHostSuffixes.allow(suffix, workspace: workspace, pool: pool)]
                case .remove(let workspace, let suffix): return [try WorkspaceHostSuffixes.remove(suffix, workspace: workspace, pool: pool)]
                }
            }
            for listing in listings {
                Output.out("\(listing.workspace): \(listing.suffixes.isEmpty ? "any hostname" : listing.suffixes.joined(separator: " "))")
                if !listing.domainsOutside.isEmpty {
                    Output.err(
                        "linkd workspaces: note: \(listing.workspace) has domains outside its suffixes, which keep working: "
                            + listing.domainsOutside.joined(separator: " "))
                }
            }
            return ExitStatus.success
        } catch let error as any ProblemConvertible {
            let problem = error.problem
            Output.err("linkd workspaces: \(problem.errors.first?.detail ?? problem.detail ?? problem.title)")
            return ExitStatus.failure
        } catch {
            Output.err("linkd workspaces: \(error)")
            return ExitStatus.failure
        }
    }
}
