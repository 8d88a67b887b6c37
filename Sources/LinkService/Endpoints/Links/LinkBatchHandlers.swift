import Foundation
import HTTPServer
import LinkKit
import Postgres

/// Many links at once (issue 29): `POST /v1/links/bulk` (JSON or NDJSON), `POST /v1/links/import` (a Firebase
/// Dynamic Links Takeout file or linkd's own CSV) and `GET /v1/links/export` (linkd's CSV, a page at a time).
/// Creates go through one write path (`LinkBatch`): each item created or refused on its own, with its problem.
struct LinkBatchHandlers: EndpointGroup {
    /// The most links one export page holds.
    static let exportLimit = 10_000

    /// What exports read through: the HTTP workers' bounded view of the pool.
    let pool: ConnectionPool
    /// What bulk writes go through: over their own view of the pool (`LinkBatch.waits`).
    let changes: CatalogChanges
    let resolver: Resolver

    private var batch: LinkBatch { LinkBatch(changes: changes) }

    static let format = QueryParameter(
        "format", .enumeration(LinkImportFile.Format.allCases.map(\.rawValue)),
        """
        `firebase`: a Firebase Dynamic Links Takeout file; `csv`: linkd's own links file; `bitly`, \
        `rebrandly`, `dub`: those shorteners' links exports (docs/LINKS-IMPORT.md).
        """,
        required: true)
    static let dryRun = QueryParameter(
        "dryRun", Schema.enumeration(["true", "false", "1", "0"]),
        "Report what the import would do and save nothing (default false).")
    static let domain = QueryParameter(
        "domain", Schema.hostname,
        "For `csv`: the domain of rows whose `domain` cell is empty; for `bitly`, `rebrandly`, `dub`: the domain of every row, its back-half kept."
    )
    static let exportLimitParameter = QueryParameter(
        "limit", Schema.integer(minimum: 1, maximum: LinkBatchHandlers.exportLimit),
        "Rows in this page (default and most: \(LinkBatchHandlers.exportLimit)).")
    static let exportFormat = QueryParameter(
        "format", .enumeration(["csv", "ndjson"]),
        """
        `csv` (the default): linkd's links file; `ndjson`: one link a line, as `GET /v1/links/{id}` answers it \
        (`application/x-ndjson`).
        """)
    static let cursor = QueryParameter(
        "cursor", .string, "Where the page starts: the cursor of the previous page's `Link: <…>; rel=\"next\"`.")

    static var schemas: [(name: String, schema: Schema)] { APISchemas.linkBatch }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/links/bulk", "createLinks", "Create up to 100,000 links", tag: "Links", scope: .write,
                description: """
                    A JSON array of links, or `application/x-ndjson` (one link a line), each the body of `POST /v1/links`, \
                    up to \(LinkBulkBody.maxItems) and \(LinkBulkBody.maxBytes >> 20) MiB. Each is created or refused on its own: \
                    `results` answers them in order, a created link as itself, a refused one as `{"error": <problem>}` with \
                    pointers under its index (`/3/destination/params/id`; 409 at `/3/slug` for a slug taken on its domain or \
                    given twice). A refused item changes nothing. One audit entry records the request. A node writes one \
                    bulk request (or import) at a time: another gets 503 with `Retry-After`. An item that would move what \
                    apps open is refused with a 409 listing the moves, unless `acknowledgeMoves=true` (docs/LINKS.md).
                    """,
                query: [LinkPlaces.acknowledgeMoves], body: "LinkBulkRequest", success: .json(200, "LinkBulkAnswer"), bulk
            )
            .bodyLimit(LinkBulkBody.maxBytes)
            .bodyMedia([
                ("application/json", .ref("LinkBulkRequest")),
                (LinkBulkBody.ndjson, Schema.string.described("One `LinkCreate` object a line.")),
            ]),
            Endpoint(
                .POST, "/v1/links/import", "importLinks", "Import links from a CSV file", tag: "Links", scope: .write,
                description: """
                    `format=firebase`: a Firebase Dynamic Links Takeout file (each short link on a domain of this workspace; \
                    the deep link opens the typed destination the domain's rules give it, else it is the link's web page; \
                    archived links are imported expired). `format=csv`: linkd's own file, as `GET /v1/links/export` writes it. \
                    `format=bitly`, `rebrandly`, `dub`: those shorteners' links exports, by their documented columns (Dub's \
                    `ios`, `android` and `geo` become targets); a row with nothing to import (Dub's domain root) is `skipped`. \
                    The body is `text/csv`, up to \(LinkBulkBody.maxItems) rows and \(LinkBulkBody.maxBytes >> 20) MiB. \
                    Each row is created or refused on its own, and reported with its number and, for a refusal, the \
                    column of each problem; `dryRun=true` reports what would happen and saves nothing (docs/LINKS-IMPORT.md).
                    """,
                query: [Self.format, Self.dryRun, Self.domain, LinkPlaces.acknowledgeMoves], body: "LinkImportFile",
                success: .json(200, "LinkImportReport"), importLinks
            )
            .bodyLimit(LinkBulkBody.maxBytes)
            .bodyMedia([("text/csv", Schema.string.described("The file, with its header row."))]),
            Endpoint(
                .GET, "/v1/links/export", "exportLinks", "Export links as CSV", tag: "Links", scope: .read, role: .editor,
                description: """
                    The links the list's filters keep, in the list's order (`sort`; creation order by default), as linkd's CSV file (a header row, then one link \
                    a row: docs/LINKS-IMPORT.md), which `POST /v1/links/import?format=csv` reads back. Up to \
                    \(Self.exportLimit) rows a page; `Link: <…>; rel="next"` gives the next page, whose file has the header \
                    row too. A cell a spreadsheet would run (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) \
                    is written with a leading `'` (a value of quotes before one of those, with one quote more), which the \
                    import takes off: the values come back exactly (docs/LINKS-IMPORT.md, "Formulas"). `format=ndjson` \
                    answers the same links one JSON object a line, as `GET /v1/links/{id}` answers each (targets and \
                    variants included).
                    """,
                query: LinkHandlers.filters + [LinkHandlers.sort, Self.exportFormat, Self.exportLimitParameter, Self.cursor],
                success: .alternatives(
                    200,
                    [
                        ("text/csv", Schema.string.described("The links file (`format=csv`).")),
                        (LinkBulkBody.ndjson, Schema.string.described("One `Link` object a line (`format=ndjson`).")),
                    ]),
                export),
        ]
    }

    func bulk(_ request: Request, _ principal: Principal) throws -> Response {
        let acknowledged = try LinkPlaces.acknowledged(request)
        let entries = try LinkBulkBody.entries(request)
        let outcomes = try batch.run(principal, dryRun: false, acknowledgeMoves: acknowledged, audit: "bulk") { targets in
            entries.concurrentMap { entry in
                switch entry {
                case .value(let value, let pointer): LinkItem(reading: value, at: pointer, targets: targets)
                case .refused(let problem): .refused(problem)
                }
            }
        }
        return .json(LinkBatchReport.bulk(outcomes))
    }

    func importLinks(_ request: Request, _ principal: Principal) throws -> Response {
        let format = LinkImportFile.Format(rawValue: try Self.format.value(in: request) ?? "") ?? .csv
        let dryRun = try request.flag(Self.dryRun.name) ?? false
        let acknowledged = try LinkPlaces.acknowledged(request)
        let domain = try Self.domain.value(in: request).map { (try? Hostname($0))?.rawValue ?? $0.lowercased() }
        guard JSONBody.mediaType(of: request) == "text/csv" else {
            throw Problem.unsupportedMediaType.with(detail: "Send the file as text/csv.")
        }
        guard !request.body.isEmpty else { throw ServiceError.badRequest("The request needs a CSV file.") }
        let file = try LinkImportFile(request.body, format: format, domain: domain, resolver: resolver, workspace: principal.workspaceID)
        // Skipped rows (nothing to import) never reach the write path; the others keep their index in the file.
        let active = file.rows.enumerated().filter { $0.element.skipped == nil }
        let written = try batch.run(principal, dryRun: dryRun, acknowledgeMoves: acknowledged, audit: "import") { targets in
            active.concurrentMap { index, row in
                guard let body = row.body else { return .refused(Problem.unprocessable) } // reported by its cells' problems
                // What a request body is refused for (JSONBody), in the JSON the cells hold: at its column.
                let refusals = JSONBody.refusals(in: body, at: "/\(index)")
                if !refusals.isEmpty { return .refused(ServiceError.validation(refusals).problem) }
                return LinkItem(reading: body, at: "/\(index)", targets: targets)
            }
        }
        var outcomes: [LinkBatch.Outcome?] = Array(repeating: nil, count: file.rows.count)
        for ((index, _), outcome) in zip(active, written) { outcomes[index] = outcome }
        return .json(LinkBatchReport.imported(file, format: format, dryRun: dryRun, outcomes))
    }

    func export(_ request: Request, _ principal: Principal) throws -> Response {
        let filter = try LinkHandlers.filter(request)
        let order = try LinkHandlers.order(request)
        let page = try Page(request, defaultLimit: Self.exportLimit, maxLimit: Self.exportLimit, keyed: true)
        let links = try pool.withConnection { connection in
            try LinkStore.page(page, workspace: principal.workspaceID, filter: filter, order: order, on: connection)
        }
        let ndjson = try Self.exportFormat.value(in: request) == "ndjson"
        var out: [UInt8] = []
        out.reserveCapacity(256 * (links.count + 1))
        if ndjson {
            for link in links.prefix(page.limit) {
                out += link.json.serializedBytes
                out.append(UInt8(ascii: "\n"))
            }
        } else {
            CSVWriter.append(LinkCSV.headerRow, to: &out)
            for link in links.prefix(page.limit) { CSVWriter.append(LinkCSV.row(link), to: &out) }
        }
        let type = ndjson ? LinkBulkBody.ndjson : "text/csv; charset=utf-8"
        var response = Response(status: 200, headers: ["Content-Type": type], body: out)
        if links.count > page.limit, let last = links.prefix(page.limit).last {
            response.headers.add("Link", "<\(page.next(request, key: order.key(of: last), id: last.id))>; rel=\"next\"")
        }
        return response
    }
}
