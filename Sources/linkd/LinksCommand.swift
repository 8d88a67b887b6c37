import Foundation
import LinkKit

/// `linkd links build`: the URLs that open a typed destination, through `POST /v1/links/build` (docs/LINKS.md).
enum LinksCommand: Command {
    static let name = "links"
    static let summary = "build links from typed destinations (links build --app ID --type T --params JSON)"
    static let help = """
        Usage: linkd links build --app ID --type TYPE [--params JSON] [--domain HOST] [options]
               linkd links build --batch FILE|-   (a JSON array of {"app","destination","domain"?}, up to 1,000)

        Prints the answer of POST /v1/links/build: the universal link, the custom-scheme link when the app has
        a scheme, and the rule that prints (and resolves) it; with --batch, one result per link, in order.
        A refusal (bad parameters, no rule can print them, a shadowed URL) is printed on stderr, status 1.

          --app ID               the app
          --type TYPE            the destination type (widgetDetail)
          --params JSON          its parameters ({"id":42,"tab":"reviews"})
          --domain HOST          build on this link domain (default: the app's primaryDomain, else the oldest)
          --batch FILE           build every link of FILE ('-': standard input)
        \(APIClient.optionsHelp)
        """

    static func run(_ arguments: [String]) -> Int32 {
        let client: APIClient
        let body: Data
        do {
            let parsed = try Arguments(arguments, valued: APIClient.valuedOptions.union(["app", "type", "params", "domain", "batch"]))
            guard parsed.positionals == ["build"] else { throw Arguments.UsageError(description: "expected 'linkd links build'") }
            client = try APIClient(parsed)
            body = try requestBody(parsed)
        } catch {
            Output.err("linkd links: \(error)\n\n\(help)")
            return ExitStatus.usage
        }
        do {
            let (status, answer) = try client.send("POST", "/v1/links/build", json: body)
            let text = String(decoding: answer, as: UTF8.self)
            guard status == 200 else {
                Output.err("linkd links: \(status): \(text)")
                return ExitStatus.failure
            }
            Output.out(text)
            return ExitStatus.success
        } catch {
            Output.err("linkd links: \(client.server.absoluteString) cannot be reached: \(error.localizedDescription)")
            return ExitStatus.failure
        }
    }

    /// The request body: one link from the options, or `{"links": <the batch file's array>}`.
    static func requestBody(_ parsed: Arguments) throws -> Data {
        if let batch = parsed.value("batch") {
            let data = batch == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: batch))
            guard case .array? = try? JSONValue.parse(String(decoding: data, as: UTF8.self)) else {
                throw Arguments.UsageError(description: "--batch must hold a JSON array of links")
            }
            return Data("{\"links\":".utf8) + data + Data("}".utf8)
        }
        guard let app = parsed.value("app"), let type = parsed.value("type") else {
            throw Arguments.UsageError(description: "--app and --type are required (or --batch)")
        }
        var params = JSONValue.object([])
        if let text = parsed.value("params") {
            guard let value = try? JSONValue.parse(text), case .object = value else {
                throw Arguments.UsageError(description: "--params must be a JSON object such as {\"id\":42}")
            }
            params = value
        }
        var members = [JSONMember(key: "app", value: .string(app)),
                       JSONMember(key: "destination", value: .object([JSONMember(key: "type", value: .string(type)), JSONMember(key: "params", value: params)]))]
        if let domain = parsed.value("domain") { members.append(JSONMember(key: "domain", value: .string(domain))) }
        return Data(JSONValue.object(members).serialized.utf8)
    }
}
