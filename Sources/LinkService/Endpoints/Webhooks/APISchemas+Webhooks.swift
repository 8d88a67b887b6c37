import LinkKit

/// The components of the webhooks endpoints, and the events they deliver (`OpenAPIDocument`; the events are in
/// the document's `webhooks`).
extension APISchemas {
    static let webhooks: [(name: String, schema: Schema)] =
        [
            (
                "WebhookEventType",
                Schema.enumeration(WebhookEventType.subscribable.map(\.rawValue))
                    .described("What happened (docs/WEBHOOKS.md, \"Events\"); the document's `webhooks` describe each payload.")
            ),
            (
                "Webhook",
                Webhook.members.schema(closed: false).described(
                    "A webhook subscription; its secret is shown only when created or rotated.")
            ),
            (
                "CreatedWebhook",
                Webhook.members.schema(
                    closed: false,
                    adding: [
                        .required(
                            "secret",
                            Schema.string(pattern: "^whsec_[A-Za-z0-9+/]{43}=?$")
                                .described(
                                    "The signing secret (Standard Webhooks), shown this once; linkd keeps it sealed. Verify deliveries with any Standard Webhooks library."
                                ))
                    ]
                ).described("A subscription with its signing secret.")
            ),
            (
                "WebhookCreate",
                Schema.object(
                    [
                        .required(WebhookFields.url), .required(WebhookFields.events), .optional(WebhookFields.description, nullable: true),
                        .optional(WebhookFields.bulkEvents, nullable: true),
                    ], closed: true)
            ),
            (
                "WebhookUpdate",
                Schema.object(
                    [
                        .optional(WebhookFields.url), .optional(WebhookFields.events), .optional(WebhookFields.description, nullable: true),
                        .optional(WebhookFields.bulkEvents, nullable: true),
                    ], closed: true
                )
                .described("Present members replace; `description: null` empties it, `bulkEvents: null` sets `summary`.")
            ),
            (
                "WebhookDelivery",
                WebhookDelivery.members.schema(closed: false).described("One event queued for one subscription, and its delivery.")
            ),
            (
                "WebhookTestResult",
                Schema.object(
                    [
                        .required("eventId", Schema.string)
                    ], closed: false
                ).described("The `webhook.test` event queued for the subscription.")
            ),
            // A component: inline, generators would name it `Link` and rename the component that is.
            (
                "ClickedLink",
                Schema.object(
                    [.required("id", .uuid), .required("domain", .hostname), .required("slug", .string), .required("shortLink", .url)],
                    closed: false
                )
                .described("The link tapped.")
            ),
            // Components for the same reason: inline, generators would name them `Domain` and `Link`.
            (
                "BulkCreatedDomain",
                Schema.object([.required("domain", .hostname), .required("created", Schema.integer(minimum: 1))], closed: false)
                    .described("How many links of a bulk request or import one domain received.")
            ),
            (
                "BulkCreatedLink",
                Schema.object(
                    [
                        .required("id", .uuid), .required("domain", .hostname), .required("slug", .string), .required("shortLink", .url),
                    ], closed: false
                ).described("A link a bulk request or import created.")
            ),
            (
                "LinkExperimentChange",
                Schema.object(
                    [
                        .required("link", Schema.ref("BulkCreatedLink")),
                        .required("target", Schema.string.nullable.described("The target carrying the variants; null: the link's own.")),
                        .required(
                            "variant", Schema.string.nullable.described("The variant stopped or removed; null: the whole experiment.")),
                        .required(
                            "reason",
                            Schema.enumeration(["created", "added", "removed", "linkDeleted", "variantStopped", "variantRemoved"])),
                        .required(
                            "variants",
                            Schema.array(
                                Schema.object(
                                    [.required("name", Schema.string), .required("weight", Schema.integer(minimum: 0))], closed: false)
                            )
                            .described("The experiment's variants as they are now (as they were, when it stopped whole).")),
                    ], closed: false
                ).described("A link's experiment that started or stopped (docs/LINKS.md, \"Targeting and experiments\").")
            ),
            (
                "WebhookEventTypes",
                Schema.object(
                    [
                        .required(
                            "items",
                            Schema.array(
                                Schema.object(
                                    [
                                        .required("type", Schema.ref("WebhookEventType")),
                                        .required("description", Schema.string),
                                    ], closed: false)))
                    ], closed: false)
            ),
        ]
        + webhookEvents.map { event in
            (
                event.schema,
                Schema.object(
                    [
                        .required("type", Schema.constant(event.type.rawValue)),
                        .required("timestamp", Schema.timestamp.described("When it happened.")),
                        .required("data", event.data),
                    ], closed: false
                ).described(event.description)
            )
        }

    /// Each event: the component of its payload, what it says, and the schema of its `data`.
    static let webhookEvents: [(type: WebhookEventType, schema: String, description: String, data: Schema)] = [
        (
            .linkCreated, "LinkCreatedEvent",
            "A link was created; for the links of a bulk request or import, only to subscriptions whose `bulkEvents` is `each` (one event per link).",
            .ref("Link")
        ),
        (
            .linksBulkCreated, "LinksBulkCreatedEvent",
            "A bulk request or import created links: one event per request, sent to `link.created` subscriptions whose `bulkEvents` is `summary` (the default). The first links are listed; `GET /v1/links` lists them all, in creation order.",
            Schema.object(
                [
                    .required("source", Schema.enumeration(["bulk", "import"])),
                    .required("created", Schema.integer(minimum: 1)),
                    .required("refused", Schema.integer(minimum: 0)),
                    .required("createdAt", Schema.timestamp.described("The creation time of every link of the request.")),
                    .required("domains", Schema.array(.ref("BulkCreatedDomain"))),
                    .required(
                        "links",
                        Schema.array(.ref("BulkCreatedLink")).described(
                            "The first \(WebhookEventType.bulkSummaryLinks) links created, in the order of the items.")),
                    .required("truncated", Schema.boolean.described("More links were created than `links` lists.")),
                ], closed: false)
        ),
        (.linkUpdated, "LinkUpdatedEvent", "A link was changed: the link as it is now.", .ref("Link")),
        (.linkDeleted, "LinkDeletedEvent", "A link was deleted: the link as it was.", .ref("Link")),
        (
            .linkClicked, "LinkClickedEvent",
            "People tapped a link: its taps over an interval (`--webhook-click-interval`) coalesced into one event; bots are not counted. Each node tells its own taps.",
            Schema.object(
                [
                    .required("link", Schema.ref("ClickedLink")),
                    .required("clicks", Schema.integer(minimum: 1)),
                    .required("from", Schema.timestamp), .required("to", Schema.timestamp),
                ], closed: false)
        ),
        (
            .linkExperimentStarted, "LinkExperimentStartedEvent",
            "An experiment started: a link's own variants, or one of its targets', went from none to some (a create, a change, a bulk request or import).",
            .ref("LinkExperimentChange")
        ),
        (
            .linkExperimentStopped, "LinkExperimentStoppedEvent",
            "An experiment stopped: its variants were all removed (`variant` null: the target or the link removed, or the variants cleared), or one of its variants was stopped or removed (`variant` names it).",
            .ref("LinkExperimentChange")
        ),
        (
            .associationChanged, "AssociationChangedEvent",
            "A domain's association files changed: the new version's number and ETags, and how many URLs of the domain's corpus now open differently (null for its first version).",
            Schema.object(
                [
                    .required("domain", .hostname), .required("version", Schema.integer(minimum: 1)),
                    .required("previousVersion", Schema.integer.nullable),
                    .required("aasaETag", .string), .required("assetlinksETag", .string),
                    .required("moved", Schema.integer(minimum: 0).nullable),
                ], closed: false)
        ),
        (
            .healthChanged, "HealthChangedEvent", "An association check of a domain changed state (origin, Apple's CDN, Google).",
            Schema.object([.required("domain", .hostname), .required("changes", Schema.array(.ref("CheckChange")))], closed: false)
        ),
        (
            .deferredClaimed, "DeferredClaimedEvent",
            "An app claimed a click token after its install: the link clicked and the answer it got.",
            Schema.object(
                [
                    .required("url", .url), .required("platform", Schema.enumeration(["ios", "android"])),
                    .required("answer", .ref("ResolveResult")),
                ], closed: false)
        ),
        (
            .conversionRecorded, "ConversionRecordedEvent",
            "An install, an open or a named event was stored (reopens are not conversions), attributed or not (`attribution.via` `none` with the reason): the event and the link, campaign, target and variant it is attributed to. Told once per event, its id derived from the event's (docs/EVENTS.md, \"Out\").",
            Schema.object([.required("event", .ref("StoredEvent"))], closed: false)
        ),
        (
            .rulesChanged, "RulesChangedEvent", "A domain's rules were created, replaced, changed or deleted: the rules as they are now.",
            Schema.object(
                [
                    .required("domain", .hostname), .required("action", Schema.enumeration(["create", "update", "delete", "replace"])),
                    .required("version", Schema.integer(minimum: 1)), .required("rules", Schema.array(.ref("Rule"))),
                ], closed: false)
        ),
        (
            .webhookDisabled, "WebhookDisabledEvent",
            "A subscription of the workspace was disabled after a run of failed deliveries (sent to the others).",
            Schema.object([.required("webhook", .ref("Webhook")), .required("lastError", .string)], closed: false)
        ),
        (
            .webhookTest, "WebhookTestEvent", "Sent on request (`POST /v1/webhooks/{id}/test`) to one subscription.",
            Schema.object([.required("webhook", .uuid), .required("message", .string)], closed: false)
        ),
    ]
}
