import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/events/export` (docs/EVENTS.md, "Export"): the workspace's events in the order they happened, as CSV (or
/// NDJSON), narrowed by time, link, kind, name and visitor, a page at a time as the links export is.
struct EventExportHandlers: EndpointGroup {
    /// The most events one page holds.
    static let exportLimit = 10_000

    let pool: ConnectionPool

    static var schemas: [(name: String, schema: Schema)] { [] }

    static let from = QueryParameter(
        "from", Schema.string(format: "date-time").example("2026-12-01T00:00:00Z"),
        "Only events that happened at or after this time (RFC 3339).")
    static let to = QueryParameter(
        "to", Schema.string(format: "date-time").example("2026-12-08T00:00:00Z"),
        "Only events that happened before this time (RFC 3339); after `from`.")
    static let link = QueryParameter("link", .uuid, "Only events attributed to this stored link (its id).")
    static let kind = QueryParameter("kind", .enumeration(Event.Kind.allCases.map(\.rawValue)), "Only events of this kind.")
    static let name = QueryParameter(
        "name", Schema.string(pattern: EventInput.namePattern).example("purchase"), "Only events of this name (`purchase`).")
    static let visitor = QueryParameter(
        "visitorId", Schema.string(minLength: 1, maxLength: 200), "Only the events of this visitor (the app's id for them).")
    static let format = QueryParameter(
        "format", .enumeration(["csv", "ndjson"]),
        "`csv` (the default): a header row, then one event a row; `ndjson`: one `StoredEvent` object a line (`application/x-ndjson`).")
    static let limit = QueryParameter(
        "limit", Schema.integer(minimum: 1, maximum: exportLimit), "Rows in this page (default and most: \(exportLimit)).")
    static let cursor = QueryParameter(
        "cursor", .string, "Where the page starts: the cursor of the previous page's `Link: <…>; rel=\"next\"`.")

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/events/export", "exportEvents", "Export events as CSV", tag: "Events", scope: .read, role: .editor,
                description: """
                    The workspace's events that the filters keep, in the order they happened (`time`, then id), as CSV: a header row \
                    (`\(StoredEvent.csvHeader.joined(separator: ","))`), then one event a row. Up to \(Self.exportLimit) rows a page; \
                    `Link: <…>; rel="next"` gives the next page, whose file has the header row too. A cell a spreadsheet would run \
                    (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) starts with `'` (docs/LINKS-IMPORT.md, "Formulas"). \
                    `format=ndjson` answers the same events one JSON object a line. Editors and above: it holds visitor ids.
                    """,
                query: [Self.from, Self.to, Self.link, Self.kind, Self.name, Self.visitor, Self.format, Self.limit, Self.cursor],
                success: .alternatives(
                    200,
                    [
                        ("text/csv", Schema.string.described("The events file (`format=csv`).")),
                        (LinkBulkBody.ndjson, Schema.string.described("One `StoredEvent` object a line (`format=ndjson`).")),
                    ]),
                export)
        ]
    }

    /// The filters of `request`. - Throws: `ServiceError.badRequest` naming a parameter whose value is not one.
    static func filter(_ request: Request) throws -> EventStore.Filter {
        try QueryParameter.refuseOthers(
            than: [from, to, link, kind, name, visitor, format, limit, cursor], in: request)
        var filter = EventStore.Filter()
        for (parameter, path) in [(Self.from, \EventStore.Filter.from), (Self.to, \EventStore.Filter.to)] {
            guard let text = try parameter.value(in: request) else { continue }
            let reading = RFC3339.read(text)
            guard case .date(let date) = reading else { throw ServiceError.badRequest(RFC3339.refusal(parameter.name, reading)) }
            filter[keyPath: path] = date
        }
        if let from = filter.from, let to = filter.to, from >= to { throw ServiceError.badRequest("from must be before to.") }
        if let text = try Self.link.value(in: request) {
            guard let id = UUID(uuidString: text) else {
                throw ServiceError.badRequest("link must be a link id (a UUID), not '\(text.prefix(100))'.")
            }
            filter.link = id
        }
        filter.kind = try Self.kind.value(in: request).flatMap(Event.Kind.init(rawValue:))
        if let text = try Self.name.value(in: request) {
            guard EventInput.isName(text) else {
                throw ServiceError.badRequest(
                    "name must be an event's name: lower-case letters, digits, _ and ., at most 64, starting with a letter.")
            }
            filter.name = text
        }
        if let text = try Self.visitor.value(in: request) {
            guard !text.isEmpty else { throw ServiceError.badRequest("visitorId must not be empty.") }
            filter.visitor = text
        }
        return filter
    }

    func export(_ request: Request, _ principal: Principal) throws -> Response {
        let filter = try Self.filter(request)
        let ndjson = try Self.format.value(in: request) == "ndjson"
        let page = try Page(request, defaultLimit: Self.exportLimit, maxLimit: Self.exportLimit)
        let events = try pool.withConnection { connection in
            try EventStore.page(workspace: principal.workspaceID, filter: filter, after: page.after, limit: page.limit, on: connection)
        }
        var out: [UInt8] = []
        out.reserveCapacity(256 * (events.count + 1))
        if ndjson {
            for (event, _) in events.prefix(page.limit) {
                out += event.json.serializedBytes
                out.append(UInt8(ascii: "\n"))
            }
        } else {
            CSVWriter.append(StoredEvent.csvHeader, to: &out)
            for (event, _) in events.prefix(page.limit) { CSVWriter.append(event.csvRow, to: &out) }
        }
        let type = ndjson ? LinkBulkBody.ndjson : "text/csv; charset=utf-8; header=present"
        var response = Response(status: 200, headers: ["Content-Type": type], body: out)
        if events.count > page.limit, let last = events.prefix(page.limit).last {
            response.headers.add("Link", "<\(page.next(request, after: (last.micros, last.event.id)))>; rel=\"next\"")
        }
        return response
    }
}
