import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/audit`: every change of the workspace, newest first: who (key id), when, what (before/after).
struct AuditHandlers: EndpointGroup {
    let pool: ConnectionPool
    let auth: Authenticator
    /// The audit log pages by its identity column alone; the cursor's id part is not needed.
    private static let unusedID = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!

    static var schemas: [(name: String, schema: Schema)] { APISchemas.audit }

    var endpoints: [Endpoint] {
        [
            Endpoint(.GET, "/v1/audit", "listAuditEntries", "Every change of the workspace, newest first", tag: "Audit", scope: .read,
                     query: [Self.resourceType, Self.link, Self.webhook],
                     success: .page("AuditEntry"), list),
        ]
    }

    private static let resourceType = QueryParameter("resourceType", Schema.string(maxLength: 100), "Only changes of this kind of resource, e.g. `rules`.")
    private static let link = QueryParameter("link", .uuid, "Only the changes of this stored link (its id).")
    private static let webhook = QueryParameter("webhook", .uuid, "Only the changes of this webhook subscription (its id), and the retries of its deliveries.")

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let page = try Page(request)
        var filter = AuditStore.Filter(type: try Self.resourceType.value(in: request))
        for (parameter, path) in [(Self.link, \AuditStore.Filter.link), (Self.webhook, \AuditStore.Filter.webhook)] {
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
        let items = entries.map { (json: $0.json, micros: $0.id, id: Self.unusedID) }
        return page.response(request, items: items)
    }
}
