import Foundation

extension LinksCommand {
    /// `linkd links export [--format csv|ndjson]`: every page of `GET /v1/links/export`, as one CSV file (one
    /// header row), or one link a line.
    static func export(_ arguments: [String]) -> Int32 {
        let filters = [
            ("domain", "domain"), ("tag", "tag"), ("campaign", "campaign"), ("destination-type", "destinationType"), ("search", "q"),
            ("sort", "sort"),
        ]
        let client: APIClient
        let output: FileHandle
        var query: [URLQueryItem] = []
        var csv = true
        do {
            let parsed = try Arguments(arguments, valued: APIClient.valuedOptions.union(["output", "format"] + filters.map(\.0)))
            guard parsed.positionals.isEmpty else { throw Arguments.UsageError(description: "unexpected '\(parsed.positionals[0])'") }
            if let format = parsed.value("format") {
                guard ["csv", "ndjson"].contains(format) else { throw Arguments.UsageError(description: "--format must be csv or ndjson") }
                csv = format == "csv"
                query.append(URLQueryItem(name: "format", value: format))
            }
            client = try APIClient(parsed)
            for (option, name) in filters {
                if let value = parsed.value(option) { query.append(URLQueryItem(name: name, value: value)) }
            }
            if let path = parsed.value("output") {
                guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                    Output.err("linkd links: cannot write \(path)")
                    return ExitStatus.failure
                }
                output = handle
            } else {
                output = FileHandle.standardOutput
            }
        } catch {
            return usage(error)
        }
        var next: String? = "/v1/links/export"
        var first = true
        while let path = next {
            let answer: APIClient.Answer
            do {
                answer = try client.exchange("GET", path, query: first ? query : [])
            } catch {
                return unreachable(client, error)
            }
            guard answer.status == 200 else {
                Output.err("linkd links: \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
                return ExitStatus.failure
            }
            // Every page has the header row; the file keeps the first one only.
            var page = answer.body
            if csv, !first, let end = page.firstRange(of: Data([13, 10])) { page = page[end.upperBound...] }
            output.write(page)
            first = false
            next = answer.next
        }
        return ExitStatus.success
    }
}
