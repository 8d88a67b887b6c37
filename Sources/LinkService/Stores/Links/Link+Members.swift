import LinkKit

extension Link {
    /// The API's form, declared once for the answers (`json`) and the document's `Link` component: the fields as
    /// written (`url` is the web page the link opens, in answers as in request bodies, so an answer can be edited
    /// and sent back), and `id`, `shortLink` (the link's own address), the taps counted and the timestamps.
    static let members: [ResourceMember<Link>] = [
        .required("id", Schema.uuid.readOnly) { .uuid($0.id) },
        .required("domain", Schema.hostname) { .string($0.hostname) },
        .required("slug", Schema.string(maxLength: TextLimit.slug.scalars)) { .string($0.slug) },
        .required("shortLink", Schema.url.readOnly.described("The link: `https://<domain>/<slug>`.")) { .string($0.shortLink) },
        .optional("app", Schema.uuid) { $0.appID.map(JSONValue.uuid) ?? .null },
        .optional("destination", Schema.ref("LinkDestination")) { $0.destination ?? .null },
        .optional("url", Schema.url.described("The web page the link opens (without `app` and `destination`).")) { .optional($0.webURL) },
        .required("fallbacks", LinkFields.fallbacks.schema) { $0.fallbacks },
        .required("skipStore", LinkFields.skipStore.schema) { .bool($0.skipStore) },
        .required("campaign", LinkFields.campaign.schema) { $0.campaign.json },
        .required("tags", Schema.array(.string)) { .array($0.tags.map(JSONValue.string)) },
        .required("preview", Schema.ref("LinkPreview")) { $0.preview },
        .optional("expiresAt", Schema.timestamp) { $0.expiresAt.map(JSONValue.timestamp) ?? .null },
        .optional("maxClicks", Schema.integer(minimum: 1)) { $0.maxClicks.map { .number(String($0)) } ?? .null },
        .optional(
            "clicks",
            Schema.integer(minimum: 0).readOnly.described(
                "The taps counted so far while the link was live, as analytics count a person's tap (no bots, previews, `HEAD` or HTTP libraries; each node adds its own every second): what `sort=clicks` orders by. With `maxClicks`, the link is spent when it reaches it."
            )
        ) {
            .number(String($0.clicks))
        },
        .optional("name", Schema.string) { .optional($0.name) },
        .optional("data", Schema.anyObject) { $0.data ?? .null },
        .optional("targets", Schema.array(Schema.ref("LinkTarget"))) { $0.targets.map { .array($0.map(\.json)) } ?? .null },
        .optional("variants", Schema.array(Schema.ref("LinkVariant"))) { $0.variants.map { .array($0.map(\.json)) } ?? .null },
        .required("createdAt", Schema.created) { .timestamp($0.createdAt) },
        .required("updatedAt", Schema.updated) { .timestamp($0.updatedAt) },
    ]
}
