import Foundation

extension LinksCommand {
    /// `linkd links import FILE --format firebase|csv|bitly|rebrandly|dub`: `POST /v1/links/import`, its report printed.
    static func importFile(_ arguments: [String]) -> Int32 {
        let client: APIClient
        let body: Data
        var query: [URLQueryItem] = []
        do {
            let parsed = try Arguments(arguments, valued: APIClient.valuedOptions.union(["format", "domain"]), flags: ["dry-run"])
            guard parsed.positionals.count == 1 else {
                throw Arguments.UsageError(description: "name one file to import ('-': standard input)")
            }
            guard let format = parsed.value("format"), ["firebase", "csv", "bitly", "rebrandly", "dub"].contains(format) else {
                throw Arguments.UsageError(
                    description: "--format must be firebase (a Takeout file), csv (linkd's), bitly, rebrandly or dub (their links exports)")
            }
            client = try APIClient(parsed)
            body = try APIClient.read(parsed.positionals[0])
            query = [
                URLQueryItem(name: "format", value: format), URLQueryItem(name: "dryRun", value: parsed.has("dry-run") ? "true" : "false"),
            ]
            if let domain = parsed.value("domain") { query.append(URLQueryItem(name: "domain", value: domain)) }
        } catch {
            return usage(error)
        }
        do {
            let answer = try client.exchange("POST", "/v1/links/import", query: query, body: body, contentType: "text/csv")
            let text = String(decoding: answer.body, as: UTF8.self)
            guard answer.status == 200 else {
                Output.err("linkd links: \(answer.status): \(text)")
                return ExitStatus.failure
            }
            Output.out(text)
            return summary(text, query.contains { $0.name == "dryRun" && $0.value == "true" } ? "wouldCreate" : "created")
        } catch {
            return unreachable(client, error)
        }
    }
}
