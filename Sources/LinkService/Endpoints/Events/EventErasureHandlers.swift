import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `DELETE /v1/events?visitorId=…` (docs/EVENTS.md, "Erasure"): a person's events deleted on request, with what ties
/// them to a click (the click tokens of their installs) and the `conversion.recorded` deliveries that tell them,
/// queued or logged. Aggregates stay (rollups, hits' counts: they name nobody). Admins only, as other changes of what
/// people's data linkd keeps; audited as `event_erasure` under the visitor id's SHA-256, so the log keeps no more of
/// the person than the request it records.
struct EventErasureHandlers: EndpointGroup {
    let pool: ConnectionPool

    static let visitor = QueryParameter(
        "visitorId", Schema.string(minLength: 1, maxLength: 200), "The visitor whose events are deleted (the app's id for them).",
        required: true)

    static var schemas: [(name: String, schema: Schema)] {
        [
            (
                "EventErasure",
                Schema.object(
                    [
                        .required("visitorId", Schema.string),
                        .required("events", Schema.integer(minimum: 0).described("Events deleted.")),
                        .required(
                            "clickTokens", Schema.integer(minimum: 0).described("Click tokens of the visitor's installs deleted.")),
                        .required(
                            "webhookDeliveries",
                            Schema.integer(minimum: 0).described("`conversion.recorded` deliveries telling the visitor's events deleted.")),
                    ], closed: false
                ).described("What an erasure deleted.")
            )
        ]
    }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .DELETE, "/v1/events", "eraseVisitorEvents", "Delete a visitor's events (erasure)", tag: "Events", scope: .write,
                role: .admin,
                description: """
                    Deletes every event of the visitor, the click tokens their installs came with and the `conversion.recorded` \
                    deliveries telling them (queued or in the delivery log), at once, and answers how many. Aggregates (funnel \
                    rollups, hit counts) stay: they name nobody. Audited as `event_erasure` under the visitor id's SHA-256. \
                    Deleting a visitor with no events answers zeros.
                    """,
                query: [Self.visitor], success: .json(200, "EventErasure"), erase)
        ]
    }

    func erase(_ request: Request, _ principal: Principal) throws -> Response {
        try QueryParameter.refuseOthers(than: [Self.visitor], in: request)
        let visitor = try Self.visitor.value(in: request) ?? ""
        let workspace = principal.workspaceID
        let (erased, deliveries) = try pool.withTransaction { connection in
            let erased = try EventStore.erase(visitor: visitor, workspace: workspace, on: connection)
            let deliveries = try WebhookStore.eraseConversions(visitor: visitor, workspace: workspace, on: connection)
            try AuditStore.record(
                on: connection, principal, .delete, type: "event_erasure", id: SHA256.hex(visitor),
                before: .object([
                    "visitorIdSHA256": .string(SHA256.hex(visitor)), "events": .integer(erased.events),
                    "clickTokens": .integer(erased.clickTokens), "webhookDeliveries": .integer(deliveries),
                ]))
            return (erased, deliveries)
        }
        return .json(
            JSONValue.object([
                JSONMember(key: "visitorId", value: .string(visitor)),
                JSONMember(key: "events", value: .integer(erased.events)),
                JSONMember(key: "clickTokens", value: .integer(erased.clickTokens)),
                JSONMember(key: "webhookDeliveries", value: .integer(deliveries)),
            ]).serializedBytes)
    }
}
