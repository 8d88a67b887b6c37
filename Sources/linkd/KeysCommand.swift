import Foundation
import LinkService
import Postgres

/// `linkd keys create`: the bootstrap path of a fresh install (creates the workspace if needed).
enum KeysCommand: Command {
    static let name = "keys"
    static let summary = "create API keys (keys create --workspace NAME --scope admin)"
    static let help = """
        Usage: linkd keys create --workspace NAME [--scope read|write|admin] [--role ROLE] [--name LABEL] [options]

        Creates an API key in the workspace NAME (creating the workspace when it does not exist) and
        prints the key on stdout. The key is shown only this once; linkd stores only its SHA-256 hash.
        Further keys can be managed over HTTP with POST/GET/DELETE /v1/keys and an admin key.

          --workspace NAME       the workspace (required)
          --scope SCOPE          read, write or admin (default: admin)
          --role ROLE            the role the key acts as: viewer, editor, admin or owner (default: viewer
                                 for the read scope, else admin; docs/PEOPLE.md, "Roles")
          --name LABEL           a label shown in key listings

        \(Configuration.optionsHelp)
        """

    static func run(_ arguments: [String]) -> Int32 {
        let configuration: Configuration
        let workspace: String
        let scope: Scope
        let role: Role?
        let label: String
        do {
            let parsed = try Arguments(arguments, valued: Configuration.valuedOptions.union(["workspace", "scope", "role", "name"]))
            guard parsed.positionals == ["create"] else {
                throw Arguments.UsageError(description: "expected 'linkd keys create --workspace NAME'")
            }
            guard let name = parsed.value("workspace") else { throw Arguments.UsageError(description: "--workspace is required") }
            guard let chosen = Scope(rawValue: parsed.value("scope") ?? "admin") else {
                throw Arguments.UsageError(description: "--scope must be read, write or admin")
            }
            let named = parsed.value("role")
            guard named.map({ Role(rawValue: $0) != nil }) ?? true else {
                throw Arguments.UsageError(description: "--role must be viewer, editor, admin or owner")
            }
            configuration = try Configuration(parsed)
            role = named.flatMap(Role.init(rawValue:))
            workspace = name
            scope = chosen
            label = parsed.value("name") ?? ""
        } catch {
            Output.err("linkd keys: \(error)\n\n\(help)")
            return ExitStatus.usage
        }
        return ExitStatus.of("linkd keys") {
            try DatabaseBootstrap.withMigratedDatabase(configuration) { pool in
                Output.out(try Workspace.createKey(pool: pool, workspace: workspace, scope: scope, role: role, keyName: label))
            }
            return ExitStatus.success
        }
    }
}
