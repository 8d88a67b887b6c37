import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/audit`: every change of the workspace, newest first: who (the key or person, by name), from where, when,
/// what (before/after); as JSON or, for `format=csv`, as CSV.
struct AuditHandlers: EndpointGroup {
    let pool: ConnectionPool
    /// The audit log pages by its identity column alone; the cursor's id part is not needed.
    private static let unusedID = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!

    static var schemas: [(name: String, schema: Schema)] { APISchemas.audit }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/audit", "listAuditEntries", "Every change of the workspace, newest first", tag: "Audit", scope: .read,
                description: """
                    Each entry names its actor (the key, else the signed-in person, by the name it had then) and the \
                    client address the change came from. `format=csv` answers the same page as CSV (`Link` gives the next).
                    """,
                query: [Self.resourceType, Self.link, Self.webhook, Self.person, Self.key, Self.format],
                success: .page(
                    "AuditEntry",
                    csv: Schema.string.described(
                        """
                        A header row, then one row per entry: `\(AuditEntry.csvHeader.joined(separator: ","))`, `before` and \
                        `after` as JSON. Sent as `text/csv; charset=utf-8; header=present`. A cell a spreadsheet would run \
                        (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) starts with `'` (docs/LINKS-IMPORT.md, "Formulas").
                        """)), list)
        ]
    }

    private static let resourceType = QueryParameter(
        "resourceType", Schema.string(maxLength: 100), "Only changes of this kind of resource, e.g. `rules`.")
    private static let link = QueryParameter("link", .uuid, "Only the changes of this stored link (its id).")
    private static let webhook = QueryParameter(
        "webhook", .uuid, "Only the changes of this webhook subscription (its id), and the retries of its deliveries.")
    private static let person = QueryParameter(
        "person", .uuid, "Only the changes of this person (their id): signed in, or through a key they created.")
    private static let key = QueryParameter("key", .uuid, "Only the changes made with this API key (its id).")
    private static let format = QueryParameter("format", .enumeration(["json", "csv"]), "`csv`: the page as CSV (default json).")

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let page = try Page(request)
        var filter = AuditStore.Filter(type: try Self.resourceType.value(in: request))
        let csv = try Self.format.value(in: request) == "csv"
        let filters = [
            (Self.link, \AuditStore.Filter.link), (Self.webhook, \AuditStore.Filter.webhook),
            (Self.person, \AuditStore.Filter.person), (Self.key, \AuditStore.Filter.key),
        ]
        for (parameter, path) in filters {
            guard let text = try parameter.value(in: request) else { continue }
            guard let id = UUID(uuidString: text) else {
                throw ServiceError.badRequest("\(parameter.name) must be an id (a UUID), not '\(text.prefix(100))'.")
            }
            filter[keyPath: path] = id
        }
        // Keyset on the identity column, newest first.
        let before = page.after?.micros
        let entries = try pool.withConnection { [filter] connection in
            try AuditStore.page(workspace: principal.workspaceID, before: before, filter: filter, limit: page.limit + 1, on: connection)
        }
        if csv { return Self.csv(entries, page: page, request: request) }
        let items = entries.map { (json: $0.json, micros: $0.id, id: Self.unusedID) }
        return page.response(request, items: items)
    }

    /// The page of `entries` (up to `limit + 1`: the extra one only says another page exists) as CSV.
    private static func csv(_ entries: [AuditEntry], page: Page, request: Request) -> Response {
        var out: [UInt8] = []
        CSVWriter.append(AuditEntry.csvHeader, to: &out)
        for entry in entries.prefix(page.limit) { CSVWriter.append(entry.csvRow, to: &out) }
        var response = Response(status: 200, headers: ["Content-Type": "text/csv; charset=utf-8; header=present"], body: out)
        if entries.count > page.limit, let last = entries.prefix(page.limit).last {
            response.headers.add("Link", "<\(page.next(request, key: String(last.id), id: unusedID))>; rel=\"next\"")
        }
        return response
    }
}
