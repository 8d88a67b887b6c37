import Foundation
import LinkService
import Postgres

/// `linkd users create`: the first person of a fresh install, and any person an operator adds without mail.
enum UsersCommand: Command {
    static let name = "users"
    static let summary = "add people (users create --workspace NAME --email ADDRESS --role owner)"
    static let help = """
        Usage: linkd users create --workspace NAME --email ADDRESS [--role owner|admin|editor|viewer] [--name NAME] [options]

        Adds the person with that email to the workspace NAME with the role (creating the workspace and the person
        when they do not exist; a member gets the new role) and prints a one-time link on stdout that sets their
        password: <public url>/console/#/password?token=…, valid for 24 hours, used once. No mail server is needed.
        Running it again prints a new link.

          --workspace NAME       the workspace (required)
          --email ADDRESS        the person's email address (required)
          --role ROLE            owner, admin, editor or viewer (default: owner)
          --name NAME            the person's name, as others see it

        \(Configuration.optionsHelp)
        """

    static func run(_ arguments: [String]) -> Int32 {
        let configuration: Configuration
        let workspace: String, email: String, role: Role, personName: String
        do {
            let parsed = try Arguments(arguments, valued: Configuration.valuedOptions.union(["workspace", "email", "role", "name"]))
            guard parsed.positionals == ["create"] else {
                throw Arguments.UsageError(description: "expected 'linkd users create --workspace NAME --email ADDRESS'")
            }
            guard let name = parsed.value("workspace") else { throw Arguments.UsageError(description: "--workspace is required") }
            guard let address = parsed.value("email") else { throw Arguments.UsageError(description: "--email is required") }
            guard let chosen = Role(rawValue: parsed.value("role") ?? "owner") else {
                throw Arguments.UsageError(description: "--role must be owner, admin, editor or viewer")
            }
            configuration = try Configuration(parsed)
            (workspace, email, role, personName) = (name, address, chosen, parsed.value("name") ?? "")
        } catch {
            Output.err("linkd users: \(error)\n\n\(help)")
            return ExitStatus.usage
        }
        return ExitStatus.of("linkd users") {
            try DatabaseBootstrap.withMigratedDatabase(configuration) { pool in
                let sessions = configuration.service.sessions
                let token = try Workspace.addPerson(
                    pool: pool, workspace: workspace, email: email, role: role, personName: personName,
                    linkLifetime: sessions.setPasswordLinkLifetime)
                let base = PublicOrigin(publicURL: sessions.publicURL, apiHostname: nil).configured
                Output.out(OneTimeLinkURLs.password(token, base: base ?? "http://localhost:\(configuration.listen.port)"))
            }
            return ExitStatus.success
        }
    }
}
