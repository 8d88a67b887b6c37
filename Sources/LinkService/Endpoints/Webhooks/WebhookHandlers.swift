import Foundation
import HTTPServer
import LinkKit
import Outbound
import Postgres

/// `/v1/webhooks`: a workspace's webhook subscriptions (admin scope), their secrets, a test event, and the
/// delivery log with retry (docs/WEBHOOKS.md).
struct WebhookHandlers: EndpointGroup {
    let pool: ConnectionPool
    let changes: CatalogChanges
    let configuration: WebhookConfiguration
    /// Woken after a subscription was deleted (its outbox rows go in batches, after the answer).
    let cleanup: WebhookCleanup

    private var resource: ResourceEndpoints { ResourceEndpoints(changes: changes) }

    static var schemas: [(name: String, schema: Schema)] { APISchemas.webhooks }
    static var events: [(name: String, summary: String, schema: String)] {
        APISchemas.webhookEvents.map { ($0.type.rawValue, $0.description, $0.schema) }
    }

    static let status = QueryParameter(
        "status", Schema.enumeration(["pending", "retrying", "delivered"]),
        "Only the deliveries in this state.")

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/webhooks", "createWebhook", "Subscribe a URL to the workspace's events", tag: "Webhooks", scope: .admin,
                description: """
                    The answer holds the signing secret (`whsec_…`) this once (sent with `Cache-Control: no-store`). The URL must be https \
                    (http only when the server allows it) and its host must resolve to public addresses only, checked now and again at \
                    every delivery.
                    """,
                body: "WebhookCreate", success: .created("CreatedWebhook"), errors: [409, 503], create),
            Endpoint(
                .GET, "/v1/webhooks", "listWebhooks", "List the workspace's webhook subscriptions", tag: "Webhooks", scope: .admin,
                success: .page("Webhook"), list),
            Endpoint(
                .GET, "/v1/webhooks/events", "listWebhookEventTypes", "The event types a subscription can receive", tag: "Webhooks",
                scope: .admin, success: .json(200, "WebhookEventTypes"), eventTypes),
            Endpoint(
                .GET, "/v1/webhooks/{id}", "getWebhook", "Read a webhook subscription", tag: "Webhooks", scope: .admin,
                success: .resource("Webhook"), get),
            Endpoint(
                .PATCH, "/v1/webhooks/{id}", "updateWebhook", "Change a subscription's URL, events or description", tag: "Webhooks",
                scope: .admin, ifMatch: true, body: "WebhookUpdate", success: .resource("Webhook"), update),
            Endpoint(
                .DELETE, "/v1/webhooks/{id}", "deleteWebhook", "Delete a subscription and its delivery log", tag: "Webhooks",
                scope: .admin,
                description: "Answered at once: nothing more is sent to it, and its queued events and log are deleted in the background.",
                ifMatch: true, success: .noContent, delete),
            Endpoint(
                .POST, "/v1/webhooks/{id}/rotate-secret", "rotateWebhookSecret", "Replace a subscription's signing secret",
                tag: "Webhooks", scope: .admin,
                description:
                    "The new secret signs every delivery from now on, retries of earlier events included; it is in this answer only.",
                ifMatch: true, bodyRequired: false, success: .json(200, "CreatedWebhook"), errors: [503], rotate),
            Endpoint(
                .POST, "/v1/webhooks/{id}/pause", "pauseWebhook", "Stop sending to a subscription; its events still queue",
                tag: "Webhooks", scope: .admin, ifMatch: true, bodyRequired: false, success: .resource("Webhook"), pause),
            Endpoint(
                .POST, "/v1/webhooks/{id}/resume", "resumeWebhook", "Send to a paused or disabled subscription again",
                tag: "Webhooks", scope: .admin,
                description: "Its failure run starts over and every undelivered event is due at once, in order.",
                ifMatch: true, bodyRequired: false, success: .resource("Webhook"), resume),
            Endpoint(
                .POST, "/v1/webhooks/{id}/test", "testWebhook", "Queue a `webhook.test` event for this subscription",
                tag: "Webhooks", scope: .admin, bodyRequired: false, success: .json(202, "WebhookTestResult"), errors: [409], test),
            Endpoint(
                .GET, "/v1/webhooks/{id}/deliveries", "listWebhookDeliveries", "The delivery log, newest first", tag: "Webhooks",
                scope: .admin,
                description:
                    "Delivered events are kept for the retention (`--webhook-retention-days`); undelivered ones until delivered or the subscription is deleted.",
                query: [Self.status], success: .page("WebhookDelivery"), deliveries),
            Endpoint(
                .POST, "/v1/webhooks/{id}/deliveries/{deliveryId}/retry", "retryWebhookDelivery",
                "Send a delivery again now", tag: "Webhooks", scope: .admin,
                description:
                    "An undelivered event is tried at once; a delivered one is sent again with its event id (receivers that keep ids drop it).",
                bodyRequired: false, success: .json(202, "WebhookDelivery"), errors: [409], retry),
        ]
    }

    /// The delivery log pages by its identity column alone; the cursor's id part is not needed.
    private static let unusedID = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let url = WebhookFields.url.read(&body, required: true)
        let events = WebhookFields.events.read(&body, required: true)
        let description = WebhookFields.description.read(&body) ?? ""
        let bulkEvents = WebhookFields.bulkEvents.read(&body) ?? WebhookFields.defaultBulkEvents
        body.finish()
        if let url { checkTarget(url, errors) }
        try errors.check()
        let keys = try sealingKeys()
        let id = UUID()
        let signature = WebhookSignature.generate()
        let limit = configuration.subscriptionLimit
        let created = try changes.pool.withTransaction { connection in
            guard try WebhookStore.countLocked(workspace: principal.workspaceID, on: connection) < limit else {
                throw ServiceError.conflict(
                    "The workspace has \(limit) webhook subscriptions, the most it may have (--webhook-subscription-limit); delete one first."
                )
            }
            let created = try WebhookStore.insert(
                id, workspace: principal.workspaceID, url: url!, events: events!,
                description: description, secret: keys.seal(signature.key, for: id),
                keyID: keys.sealingID, bulkEvents: bulkEvents, on: connection)
            try AuditStore.record(on: connection, principal, .create, type: Webhook.auditType, id: created.auditID, after: created.json)
            return created
        }
        return Self.withSecret(created, signature, status: 201, location: location("getWebhook", [.id: created.id.canonicalText]))
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.list(request) { page, connection in
            try WebhookStore.page(page, of: principal.workspaceID, on: connection)
        }
    }

    func eventTypes(_ request: Request, _ principal: Principal) throws -> Response {
        .json(
            JSONValue.object([
                "items": .array(
                    APISchemas.webhookEvents.filter { WebhookEventType.subscribable.contains($0.type) }.map {
                        .object(["type": .string($0.type.rawValue), "description": .string($0.description)])
                    })
            ]).serializedBytes)
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.get { try find(request, principal, on: $0) }
    }

    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let url = WebhookFields.url.read(&body)
        let events = WebhookFields.events.read(&body)
        let description = body.has(WebhookFields.description.name) ? (WebhookFields.description.read(&body) ?? "") : nil
        let bulkEvents =
            body.has(WebhookFields.bulkEvents.name) ? (WebhookFields.bulkEvents.read(&body) ?? WebhookFields.defaultBulkEvents) : nil
        body.finish()
        if let url { checkTarget(url, errors) }
        try errors.check()
        return try resource.update(
            request, principal, find: { try find(request, principal, on: $0, forUpdate: true) },
            check: { _, _ in () }
        ) { before, _, connection, _ in
            try WebhookStore.change(
                before.id, url: url, events: events, description: description, bulkEvents: bulkEvents,
                on: connection)
        }
    }

    /// Deletes the row alone (its outbox rows are named for `WebhookCleanup` by the table's trigger), so the
    /// answer does not wait on a backlog.
    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        defer { cleanup.wake() }
        return try resource.delete(request, principal, find: { try find(request, principal, on: $0, forUpdate: true) }) {
            webhook, connection, _ in
            try WebhookStore.delete(webhook.id, on: connection)
        }
    }

    func rotate(_ request: Request, _ principal: Principal) throws -> Response {
        let keys = try sealingKeys()
        let signature = WebhookSignature.generate()
        let rotated = try changes.pool.withTransaction { connection in
            let before = try find(request, principal, on: connection, forUpdate: true)
            try ETag.check(request, current: before.version)
            let after = try WebhookStore.reseal(
                before.id, secret: keys.seal(signature.key, for: before.id),
                keyID: keys.sealingID, on: connection)
            try AuditStore.record(
                on: connection, principal, .update, type: Webhook.auditType, id: after.auditID,
                before: before.json, after: .object(["secret": .string("rotated")]))
            return after
        }
        return Self.withSecret(rotated, signature, status: 200)
    }

    func pause(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.update(
            request, principal, find: { try find(request, principal, on: $0, forUpdate: true) },
            check: { _, _ in () }
        ) { before, _, connection, _ in
            try WebhookStore.pause(before.id, on: connection)
        }
    }

    func resume(_ request: Request, _ principal: Principal) throws -> Response {
        defer { changes.outbox.ring() }
        return try resource.update(
            request, principal, find: { try find(request, principal, on: $0, forUpdate: true) },
            check: { _, _ in () }
        ) { before, _, connection, _ in
            try WebhookStore.resume(before.id, on: connection)
        }
    }

    func test(_ request: Request, _ principal: Principal) throws -> Response {
        let event = try changes.pool.withTransaction { connection in
            let webhook = try find(request, principal, on: connection)
            guard webhook.disabledAt == nil else { throw ServiceError.conflict("The subscription is disabled; resume it first.") }
            let event = WebhookEvent(
                .webhookTest, workspace: principal.workspaceID,
                data: .object([
                    "webhook": .uuid(webhook.id), "message": .string("A test event sent on request."),
                ]))
            try WebhookStore.enqueue([event], to: .only(webhook.id), on: connection)
            return event
        }
        changes.outbox.ring()
        return .json(JSONValue.object(["eventId": .string(event.id)]).serializedBytes, status: 202)
    }

    func deliveries(_ request: Request, _ principal: Principal) throws -> Response {
        let page = try Page(request)
        let status = try Self.status.value(in: request)
        // Keyset on the identity column, newest first.
        let before = page.after?.micros
        let items = try pool.withConnection { connection in
            let webhook = try find(request, principal, on: connection)
            return try WebhookStore.deliveries(webhook: webhook.id, before: before, status: status, limit: page.limit, on: connection)
        }
        return page.response(request, items: items.map { ($0.json, $0.id, Self.unusedID) })
    }

    func retry(_ request: Request, _ principal: Principal) throws -> Response {
        guard let id = Int64(request.pathParameter(.deliveryID)), id > 0 else { throw ServiceError.notFound("The delivery") }
        let delivery = try changes.pool.withTransaction { connection in
            let webhook = try find(request, principal, on: connection, forUpdate: true)
            guard webhook.disabledAt == nil else {
                throw ServiceError.conflict("The subscription is disabled; resume it, which retries every undelivered event.")
            }
            guard let delivery = try WebhookStore.retry(id, webhook: webhook.id, on: connection) else {
                throw ServiceError.notFound("The delivery")
            }
            try AuditStore.record(on: connection, principal, .update, type: "webhook_delivery", id: String(id), after: delivery.json)
            return delivery
        }
        changes.outbox.ring()
        return .json(delivery.json.serializedBytes, status: 202)
    }

    /// Records at `/url` why `url` may not be a target under the configuration (its form, DNS, a refused address).
    private func checkTarget(_ url: String, _ errors: FieldErrors) {
        if case .failure(let failure) = configuration.policy.check(url: url, allowHTTP: configuration.allowHTTP) {
            errors.add("/url", failure.kind == .dns ? "The host does not resolve: \(failure.message)" : failure.message)
        }
    }

    private func sealingKeys() throws -> WebhookSecretKeys {
        guard let keys = configuration.keys else {
            throw Problem.serviceUnavailable(
                detail: "No key to seal webhook secrets is configured (--webhook-secret-key).", retryAfter: nil)
        }
        return keys
    }

    /// `webhook` with its new `secret`, answered once (never cached: `NoStoreMiddleware`), at `location` when new.
    private static func withSecret(_ webhook: Webhook, _ signature: WebhookSignature, status: Int, location: String? = nil) -> Response {
        guard case .object(var members) = webhook.json else { preconditionFailure("a webhook is an object") }
        members.append(JSONMember(key: "secret", value: .string(signature.secret)))
        return Response.resource(
            .object(members), version: webhook.version, status: status,
            location: location)
    }

    /// The subscription named by the path, in the caller's workspace only; 404 otherwise.
    private func find(_ request: Request, _ principal: Principal, on connection: Connection, forUpdate: Bool = false) throws -> Webhook {
        guard let id = UUID(uuidString: request.pathParameter(.id)),
            let webhook = try WebhookStore.find(id, of: principal.workspaceID, forUpdate: forUpdate, on: connection)
        else {
            throw ServiceError.notFound("The webhook")
        }
        return webhook
    }
}
