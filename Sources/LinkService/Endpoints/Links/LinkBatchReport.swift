import ByteText
import HTTPServer
import LinkKit

/// The answers of `POST /v1/links/bulk` and `POST /v1/links/import`: counts, then each item's outcome in order.
enum LinkBatchReport {
    /// `{"created", "refused", "results": [<Link> | {"error": <problem>}]}`.
    static func bulk(_ outcomes: [LinkBatch.Outcome]) -> [UInt8] {
        let created = outcomes.reduce(0) { count, outcome in if case .created = outcome { count + 1 } else { count } }
        var out = Array("{\"created\":\(created),\"refused\":\(outcomes.count - created),\"results\":[".utf8)
        out.reserveCapacity(outcomes.count * 512)
        let items = outcomes.concurrentMap { outcome -> [UInt8] in
            switch outcome {
            case .created(let link):
                return link.json.serializedBytes
            case .refused(let problem):
                return Array("{\"error\":".utf8) + problem.jsonBytes + [UInt8(ascii: "}")]
            }
        }
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += item
        }
        out.append(literal: "]}")
        return out
    }

    /// `{"format", "dryRun", "rows", "created", "wouldCreate", "refused", "skipped", "ignoredColumns", "results":
    /// [{"row", "status", "link" | "problems": [{"column", "detail"}] | "reason"}]}`; a dry run's links have no id or
    /// timestamps yet. A nil outcome is a skipped row.
    static func imported(_ file: LinkImportFile, format: LinkImportFile.Format, dryRun: Bool, _ outcomes: [LinkBatch.Outcome?]) -> [UInt8] {
        var results: [JSONValue] = []
        results.reserveCapacity(outcomes.count)
        var created = 0
        var skipped = 0
        for (index, (row, outcome)) in zip(file.rows, outcomes).enumerated() {
            var members = [JSONMember(key: "row", value: .integer(row.number))]
            guard let outcome else {
                // A row with nothing to import: never written.
                skipped += 1
                members += [
                    JSONMember(key: "status", value: .string("skipped")), JSONMember(key: "reason", value: .string(row.skipped ?? "")),
                ]
                results.append(.object(members))
                continue
            }
            switch outcome {
            case .created(let link):
                created += 1
                var json = link.json
                if dryRun, case .object(let linkMembers) = json {
                    json = .object(linkMembers.filter { !["id", "createdAt", "updatedAt"].contains($0.key) })
                }
                members += [
                    JSONMember(key: "status", value: .string(dryRun ? "would-create" : "created")), JSONMember(key: "link", value: json),
                ]
            case .refused(let problem):
                let problems = row.body == nil ? row.problems : columns(of: problem, item: "/\(index)", row.columns ?? file.columns)
                members += [
                    JSONMember(key: "status", value: .string("refused")),
                    JSONMember(
                        key: "problems",
                        value: .array(
                            problems.map {
                                .object(["column": .string($0.column), "detail": .string($0.detail)])
                            })),
                ]
            }
            results.append(.object(members))
        }
        return JSONValue.object([
            "format": .string(format.rawValue),
            "dryRun": .bool(dryRun),
            "rows": .integer(outcomes.count),
            "created": .integer(dryRun ? 0 : created),
            "wouldCreate": .integer(dryRun ? created : 0),
            "refused": .integer(outcomes.count - created - skipped),
            "skipped": .integer(skipped),
            "ignoredColumns": .array(file.ignored.map { .object(["column": .integer($0.column), "name": .string($0.name)]) }),
            "results": .array(results),
        ]).serializedBytes
    }

    /// Each error of `problem` (pointers under `item`) with the column it names; the problem's detail for the row
    /// ("") when it has none.
    private static func columns(of problem: Problem, item: String, _ columns: LinkColumns) -> [(column: String, detail: String)] {
        guard !problem.errors.isEmpty else { return [("", problem.detail ?? problem.title)] }
        return problem.errors.map { error in
            let pointer = error.pointer.hasPrefix(item) ? String(error.pointer.dropFirst(item.count)) : error.pointer
            return (columns.column(for: pointer), error.detail)
        }
    }
}
