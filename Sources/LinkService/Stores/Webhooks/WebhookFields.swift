import LinkKit

/// The members of the webhooks' request bodies, each declared once for the document and the handlers
/// (`BodyField`). Whether `url` may be sent to (scheme, addresses) depends on the configuration: the handlers
/// ask the `AddressPolicy` after reading it.
enum WebhookFields {
    static let url = BodyField.text(
        "url", limit: .url,
        "Where events are POSTed: an absolute https URL (http only when the server allows it) whose host resolves to public addresses.")
    static let events = BodyField<[String]>(
        "events",
        schema: Schema.array(Schema.ref("WebhookEventType"), minItems: 1, maxItems: maxEvents, unique: true)
            .described("The event types sent to this subscription.")
    ) { body, name, required in
        guard let types = body.strings(name, required: required, maxCount: maxEvents) else { return nil }
        let known = Set(WebhookEventType.subscribable.map(\.rawValue))
        var errors = false
        for (index, type) in types.enumerated() where !known.contains(type) {
            body.errors.add(
                body.at(name) + "/\(index)",
                "'\(type.prefix(100))' is not an event type; the types are \(WebhookEventType.subscribable.map(\.rawValue).joined(separator: ", "))."
            )
            errors = true
        }
        if types.isEmpty {
            body.errors.add(body.at(name), "List at least one event type.")
            errors = true
        } else if Set(types).count != types.count {
            body.errors.add(body.at(name), "An event type is listed twice.")
            errors = true
        }
        return errors ? nil : types
    }
    static let description = BodyField.text("description", limit: .comment, "A note for people.")
    static let bulkEvents = BodyField.choice(
        "bulkEvents", ["summary", "each"],
        schema: Schema.enumeration(["summary", "each"]).described(
            "What a bulk request or import tells this subscription when it lists `link.created`: `summary` (the default), one `links.bulk_created` event per request; `each`, one `link.created` event per link created."
        ))
    /// What a subscription that does not say gets.
    static let defaultBulkEvents = "summary"

    static let maxEvents = 32
}
