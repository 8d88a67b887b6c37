import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET` and `PUT /v1/events/settings`: the workspace's attribution window for named events (docs/EVENTS.md,
/// "Attribution"), in days. Changing it changes how events recorded afterwards are attributed, not those recorded
/// before; audited as `event_settings`.
struct EventSettingsHandlers: EndpointGroup {
    let pool: ConnectionPool

    static let window = BodyField.integer(
        "attributionWindowDays", in: 1...90,
        "Days after a visitor's attributed install or open during which their named events are attributed to its link.",
        refusal: "attributionWindowDays is a whole number of days from 1 to 90.")

    static var schemas: [(name: String, schema: Schema)] {
        [("EventSettings", Schema.object([.required(window)], closed: true).described("How a workspace's events are attributed."))]
    }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/events/settings", "getEventSettings", "Read the workspace's attribution window", tag: "Events",
                scope: .read, success: .json(200, "EventSettings")
            ) { _, principal in
                let days = try pool.withConnection { try EventStore.windowDays(of: principal.workspaceID, on: $0) }
                return Self.answer(days)
            },
            Endpoint(
                .PUT, "/v1/events/settings", "setEventSettings", "Change the workspace's attribution window", tag: "Events",
                scope: .write, role: .admin, body: "EventSettings", success: .json(200, "EventSettings")
            ) { request, principal in
                let days = try JSONBody.read(request) { Self.window.read(&$0, required: true) }!
                try pool.withTransaction { connection in
                    let before = try EventStore.setWindowDays(days, of: principal.workspaceID, on: connection)
                    try AuditStore.record(
                        on: connection, principal, .update, type: "event_settings", id: principal.workspaceID.canonicalText,
                        before: .object(["attributionWindowDays": .integer(before)]),
                        after: .object(["attributionWindowDays": .integer(days)]))
                }
                return Self.answer(days)
            },
        ]
    }

    static func answer(_ days: Int) -> Response {
        .json(JSONValue.object(["attributionWindowDays": .integer(days)]).serializedBytes)
    }
}
