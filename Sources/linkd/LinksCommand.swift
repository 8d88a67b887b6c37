import Foundation
import LinkKit

/// `linkd links`: links through the HTTP API with a key (docs/LINKS.md): `build` the URLs of a typed destination,
/// `create` stored links (one, or many from a file), `import` a Firebase Takeout, a Bitly, Rebrandly or Dub export
/// or linkd CSV file, `export` them.
enum LinksCommand: Command {
    static let name = "links"
    static let summary = "links through the API: build, create, import (Firebase, Bitly, Rebrandly, Dub, CSV), export"
    static let help = """
        Usage: linkd links build --app ID --type TYPE [--params JSON] [--domain HOST] [options]
               linkd links build --batch FILE|-   (a JSON array of {"app","destination","domain"?}, up to 1,000)
               linkd links create --domain HOST (--url URL | --app ID --type TYPE [--params JSON]) [--slug SLUG]
                                  [--name TEXT] [--tags A,B] [--expires-at RFC3339] [options]
               linkd links create --file FILE|-   (a JSON array of links, or one a line: up to 100,000)
               linkd links import FILE|- --format firebase|csv|bitly|rebrandly|dub [--dry-run] [--domain HOST] [options]
               linkd links export [--output FILE] [--domain HOST] [--tag T] [--campaign C] [--destination-type T]
                                  [--search TEXT] [--sort created|slug|clicks|-created|-slug|-clicks] [--format csv|ndjson] [options]

        build   prints the answer of POST /v1/links/build: the universal link, the custom-scheme link when the app
                has a scheme, and the rule that prints (and resolves) it; with --batch, one result per link, in order.
        create  creates one link (POST /v1/links) and prints it, or every link of --file (POST /v1/links/bulk)
                and prints the answer: each link created, or why it was refused, in order.
        import  sends a Firebase Dynamic Links Takeout file, a Bitly, Rebrandly or Dub links export, or linkd's CSV
                (POST /v1/links/import) and prints the report, a row's problems with their columns; --dry-run saves
                nothing (docs/LINKS-IMPORT.md).
        export  writes the workspace's links as linkd's CSV, or one JSON link a line with --format ndjson
                (GET /v1/links/export, every page) to standard output or --output; the list's filters narrow it.
        A refusal is printed on stderr, status 1; so is a create or import that refused some links (with the
        counts), after the answer.

          --app ID               the app
          --type TYPE            the destination type (widgetDetail)
          --params JSON          its parameters ({"id":42,"tab":"reviews"})
          --domain HOST          build on this link domain / the link's domain / the domain of csv rows without one
                                 / the domain of every row of a bitly, rebrandly or dub export
          --batch FILE           build every link of FILE ('-': standard input)
          --url URL              the web page a created link opens
          --slug SLUG            the created link's slug (default: generated)
          --name TEXT, --tags A,B, --expires-at TIME, --max-clicks N   more fields of a created link
          --file FILE            create every link of FILE ('-': standard input)
          --format F             import: firebase (a Takeout file), bitly, rebrandly, dub (their exports) or csv
                                 (linkd's, as export writes it); export: csv (default) or ndjson
          --dry-run              import: report what would happen, save nothing
          --output FILE          export: write there instead of standard output
          --tag, --campaign, --destination-type, --search   export: only the links the list filters keep
          --sort ORDER   export: the list's order (created, slug, clicks; - reverses; default created)
        \(APIClient.optionsHelp)
        """

    static func run(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "create": return create(Array(arguments.dropFirst()))
        case "import": return importFile(Array(arguments.dropFirst()))
        case "export": return export(Array(arguments.dropFirst()))
        default: return build(arguments)
        }
    }

    /// Prints `message` and the help on stderr: a usage error.
    static func usage(_ message: Any) -> Int32 {
        Output.err("linkd links: \(message)\n\n\(help)")
        return ExitStatus.usage
    }

    /// The server cannot be reached: said on stderr.
    static func unreachable(_ client: APIClient, _ error: any Error) -> Int32 {
        Output.err("linkd links: \(client.server.absoluteString) cannot be reached: \(error.localizedDescription)")
        return ExitStatus.failure
    }

    static func build(_ arguments: [String]) -> Int32 {
        let client: APIClient
        let body: Data
        do {
            let parsed = try Arguments(arguments, valued: APIClient.valuedOptions.union(["app", "type", "params", "domain", "batch"]))
            guard parsed.positionals == ["build"] else {
                throw Arguments.UsageError(description: "expected 'linkd links build', 'create', 'import' or 'export'")
            }
            client = try APIClient(parsed)
            body = try requestBody(parsed)
        } catch {
            return usage(error)
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
            return unreachable(client, error)
        }
    }

    /// The request body: one link from the options, or `{"links": <the batch file's array>}`.
    static func requestBody(_ parsed: Arguments) throws -> Data {
        if let batch = parsed.value("batch") {
            let data = try APIClient.read(batch)
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
        var members = [
            JSONMember(key: "app", value: .string(app)),
            JSONMember(
                key: "destination",
                value: .object([JSONMember(key: "type", value: .string(type)), JSONMember(key: "params", value: params)])),
        ]
        if let domain = parsed.value("domain") { members.append(JSONMember(key: "domain", value: .string(domain))) }
        return Data(JSONValue.object(members).serialized.utf8)
    }
}
