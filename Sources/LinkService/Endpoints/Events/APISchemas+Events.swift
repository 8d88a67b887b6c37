import LinkKit

/// The components of `POST /v1/events` (`OpenAPIDocument`).
extension APISchemas {
    static let events: [(name: String, schema: Schema)] = [
        (
            "Event",
            Schema.object(
                [
                    .required(
                        "name",
                        Schema.string(pattern: EventInput.namePattern).described(
                            """
                            `install` (the app's first launch), `open` (the app opened by a link), `reopen`, or a named event (`signup`, \
                            `purchase`: lower-case letters, digits, `_` and `.`, at most 64, starting with a letter).
                            """)),
                    .required(
                        "idempotencyKey",
                        Schema.string(minLength: 1, maxLength: 200).described(
                            "Unique per workspace: an event sent again with it counts once.")),
                    .optional("app", Schema.uuid.described("The app of the workspace that reports it.")),
                    .optional(
                        "time",
                        Schema.string(format: "date-time").described(
                            "When it happened (RFC 3339), at most 300 seconds ahead of the server's clock; by default when it is received.")
                    ),
                    .optional("value", Schema.integer(minimum: 0).described("An amount in minor units (cents), with `currency`.")),
                    .optional("currency", Schema.string(pattern: "^[A-Z]{3}$").described("The amount's ISO 4217 currency, with `value`.")),
                    .optional(
                        "visitorId",
                        Schema.string(minLength: 1, maxLength: 200).described(
                            "The app's id for this person or install: a named event is attributed to the visitor's last attributed event.")),
                    .optional(
                        "clickToken",
                        Schema.string(pattern: "^[0-9a-f]{32}$").described(
                            "The click token the install came with (the Play referrer's `linkd_token`, or the claim link's).")),
                    .optional("url", Schema.string(maxLength: 2000).described("The URL the app was opened with (an `open`).")),
                ], closed: true
            ).described("One event an app or a server reports (docs/EVENTS.md).")
        ),
        (
            "EventList",
            Schema.object(
                [
                    .required(
                        "events",
                        Schema.array(
                            Schema.anyObject.described(
                                """
                                An `Event`. Each is checked alone: one that is not a valid `Event` is refused in its result (`EventResult`), \
                                not with the request, so the items are any objects here.
                                """), minItems: 0, maxItems: EventHandlers.maxBatch))
                ], closed: true
            ).described("Several events, each checked alone.")
        ),
        (
            "EventBatch",
            Schema.oneOf([Schema.ref("Event"), Schema.ref("EventList")]).described(
                #"One event, or several as `{"events": [...]}`, each checked alone."#)
        ),
        (
            "EventAttribution",
            Schema.object(
                [
                    .required(
                        "via",
                        Schema.enumeration(["click_token", "link_url", "visitor", "none"]).described("What attributed it, or `none`.")),
                    .optional("link", Schema.uuid.described("The stored link; absent when a rule alone decided the URL.")),
                    .optional(
                        "campaign",
                        Schema.object(
                            LinkFields.Campaign.all.map { .optional($0.name, Schema.string) }, closed: false
                        ).described("The click's `utm_*` fields (the URL's first, then the link's own).")),
                    .optional("target", Schema.string.described("The target of a targeted link the click was given.")),
                    .optional("variant", Schema.string.described("The experiment's variant the click was given.")),
                    .optional(
                        "country",
                        Schema.string(pattern: "^[A-Z]{2}$").described("The click's country (ISO 3166-1 alpha-2), when known.")),
                    .optional(
                        "os",
                        Schema.string.described(
                            "The click's operating system family (uap-core's names); for an open through a link URL, its app's.")),
                    .optional(
                        "reason",
                        Schema.string.described(
                            "With `none`: `unknown_click_token`, `not_a_link`, `no_click_in_window`, `no_click_token`, `no_url`, `no_visitor`."
                        )),
                ], closed: false)
        ),
        (
            "StoredEvent",
            Schema.object(
                [
                    .required("id", Schema.uuid),
                    .required("kind", Schema.enumeration(Event.Kind.allCases.map(\.rawValue))),
                    .required("name", Schema.string.described("`install`, `open`, `reopen`, or the named event's name.")),
                    .required("time", Schema.timestamp.described("When it happened.")),
                    .required("receivedAt", Schema.timestamp.described("When linkd recorded it.")),
                    .optional("value", Schema.integer(minimum: 0).described("An amount in minor units, with `currency`.")),
                    .optional("currency", Schema.string(pattern: "^[A-Z]{3}$")),
                    .optional("app", Schema.uuid),
                    .optional("visitorId", Schema.string),
                    .required("idempotencyKey", Schema.string),
                    .optional("url", Schema.string.described("The URL the app was opened with, as sent.")),
                    .required("attribution", Schema.ref("EventAttribution")),
                ], closed: false
            ).described("An event as linkd keeps it: the `conversion.recorded` webhook's and the export's (docs/EVENTS.md).")
        ),
        (
            "EventResult",
            Schema.object(
                [
                    .required("status", Schema.enumeration(["accepted", "duplicate", "refused"])),
                    .optional("idempotencyKey", Schema.string),
                    .optional("kind", Schema.enumeration(Event.Kind.allCases.map(\.rawValue))),
                    .optional("error", Schema.ref("Problem")),
                ], closed: false
            ).described(
                """
                What became of one event: `accepted` (queued; stored within moments and attributed then, or kept as stored when its \
                key was stored before), `duplicate` (its key came earlier in the same request) or `refused`. A single event (not a \
                batch) answers this alone: 202, accepted or duplicate; refused is a 422 problem.
                """
            )
        ),
        (
            "EventBatchReport",
            Schema.object(
                [
                    .required("accepted", Schema.integer(minimum: 0)),
                    .required("duplicates", Schema.integer(minimum: 0)),
                    .required("refused", Schema.integer(minimum: 0)),
                    .required("results", Schema.array(Schema.ref("EventResult"))),
                ], closed: false
            ).described("A batch's counts and each event's result in the order sent.")
        ),
        (
            "EventReport",
            Schema.anyOf([Schema.ref("EventBatchReport"), Schema.ref("EventResult")]).described(
                "A batch's counts and each event's result in the order sent; a single event's result alone.")
        ),
    ]
}
