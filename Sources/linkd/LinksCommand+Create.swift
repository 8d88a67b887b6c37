import Foundation
import LinkKit

extension LinksCommand {
    /// `linkd links create`: one link from the options (`POST /v1/links`), or every link of `--file`
    /// (`POST /v1/links/bulk`).
    static func create(_ arguments: [String]) -> Int32 {
        let client: APIClient
        let path: String
        let body: Data
        let contentType: String
        do {
            let parsed = try Arguments(
                arguments,
                valued: APIClient.valuedOptions.union([
                    "file", "domain", "slug", "url", "app", "type", "params", "name", "tags", "expires-at", "max-clicks",
                ]))
            guard parsed.positionals.isEmpty else { throw Arguments.UsageError(description: "unexpected '\(parsed.positionals[0])'") }
            client = try APIClient(parsed)
            if let file = parsed.value("file") {
                body = try APIClient.read(file)
                path = "/v1/links/bulk"
                // A JSON array, else one link a line.
                contentType =
                    body.first(where: { ![32, 9, 10, 13].contains($0) }) == UInt8(ascii: "[") ? "application/json" : "application/x-ndjson"
            } else {
                body = try oneLink(parsed)
                path = "/v1/links"
                contentType = "application/json"
            }
        } catch {
            return usage(error)
        }
        do {
            let answer = try client.exchange("POST", path, body: body, contentType: contentType)
            let text = String(decoding: answer.body, as: UTF8.self)
            guard answer.status == 200 || answer.status == 201 else {
                Output.err("linkd links: \(answer.status): \(text)")
                return ExitStatus.failure
            }
            Output.out(text)
            return summary(text, "created")
        } catch {
            return unreachable(client, error)
        }
    }

    /// For an answer with `created` and `refused` counts: status 1 (and the counts on stderr) when some were refused.
    static func summary(_ text: String, _ created: String) -> Int32 {
        guard let answer = try? JSONValue.parse(text), case .number(let refused)? = answer["refused"] else { return ExitStatus.success }
        guard refused != "0" else { return ExitStatus.success }
        let done = answer[created]?.serialized ?? "0"
        Output.err("linkd links: \(done) \(created == "created" ? "created" : "would be created"), \(refused) refused (see the answer)")
        return ExitStatus.failure
    }

    /// The body of `POST /v1/links` from the options.
    private static func oneLink(_ parsed: Arguments) throws -> Data {
        guard let domain = parsed.value("domain") else {
            throw Arguments.UsageError(description: "--domain is required (or --file)")
        }
        var members = [JSONMember(key: "domain", value: .string(domain))]
        switch (parsed.value("url"), parsed.value("app"), parsed.value("type")) {
        case (let url?, nil, nil):
            members.append(JSONMember(key: "url", value: .string(url)))
        case (nil, let app?, let type?):
            var params = JSONValue.object([])
            if let text = parsed.value("params") {
                guard let value = try? JSONValue.parse(text), case .object = value else {
                    throw Arguments.UsageError(description: "--params must be a JSON object such as {\"id\":42}")
                }
                params = value
            }
            members += [
                JSONMember(key: "app", value: .string(app)),
                JSONMember(key: "destination", value: .object(["type": .string(type), "params": params])),
            ]
        default:
            throw Arguments.UsageError(description: "give either --url, or --app with --type")
        }
        for (option, member) in [("slug", "slug"), ("name", "name"), ("expires-at", "expiresAt")] {
            if let value = parsed.value(option) { members.append(JSONMember(key: member, value: .string(value))) }
        }
        if let tags = parsed.value("tags") {
            members.append(JSONMember(key: "tags", value: .array(tags.split(separator: ",").map { .string(String($0)) })))
        }
        if let text = parsed.value("max-clicks") {
            guard let count = Int(text) else { throw Arguments.UsageError(description: "--max-clicks must be a whole number") }
            members.append(JSONMember(key: "maxClicks", value: .integer(count)))
        }
        return Data(JSONValue.object(members).serialized.utf8)
    }
}
