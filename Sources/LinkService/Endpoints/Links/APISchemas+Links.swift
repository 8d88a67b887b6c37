import LinkKit

/// The components of the links endpoints (`OpenAPIDocument`), written from `LinkFields`.
extension APISchemas {
    /// The writable members; on create, `domain` is required.
    private static func linkProperties(creating: Bool) -> [Schema.Property] {
        [
            creating ? .required(LinkFields.domain) : .optional(LinkFields.domain, nullable: true),
            .optional(LinkFields.slug, nullable: true),
            .optional(LinkFields.app, nullable: true),
            .optional(LinkFields.destination.name, Schema.ref("LinkDestination").nullable),
            .optional(LinkFields.url, nullable: true),
            .optional(LinkFields.fallbacks, nullable: true),
            .optional(LinkFields.skipStore, nullable: true),
            .optional(LinkFields.campaign, nullable: true),
            .optional(LinkFields.tags, nullable: true),
            .optional(LinkFields.preview.name, Schema.ref("LinkPreview").nullable),
            .optional(LinkFields.expiresAt, nullable: true),
            .optional(LinkFields.maxClicks, nullable: true),
            .optional(LinkFields.name, nullable: true),
            .optional(LinkFields.data, nullable: true),
        ]
    }

    static let links: [(name: String, schema: Schema)] = [
        // Components rather than inline objects, which generators would name `Destination` and `Preview` like the
        // destination types' and the rule preview's components, renaming those.
        ("LinkDestination", LinkFields.destination.schema),
        ("LinkPreview", LinkFields.preview.schema),
        ("Link", Schema.object([
            .required("id", Schema.uuid.readOnly),
            .required("domain", Schema.hostname),
            .required("slug", Schema.string(maxLength: TextLimit.slug.scalars)),
            .required("shortLink", Schema.url.readOnly.described("The link: `https://<domain>/<slug>`.")),
            .optional("app", Schema.uuid),
            .optional("destination", Schema.ref("LinkDestination")),
            .optional("url", Schema.url.described("The web page the link opens (without `app` and `destination`).")),
            .required("fallbacks", LinkFields.fallbacks.schema),
            .required("skipStore", LinkFields.skipStore.schema),
            .required("campaign", LinkFields.campaign.schema),
            .required("tags", Schema.array(.string)),
            .required("preview", Schema.ref("LinkPreview")),
            .optional("expiresAt", Schema.timestamp),
            .optional("maxClicks", Schema.integer(minimum: 1)),
            .optional("clicks", Schema.integer(minimum: 0).readOnly.described(
                "The taps counted so far while the link was live, as analytics count a person's tap (no bots, previews, `HEAD` or HTTP libraries; each node adds its own every second): what `sort=clicks` orders by. With `maxClicks`, the link is spent when it reaches it.")),
            .optional("name", Schema.string),
            .optional("data", Schema.anyObject),
            .required("createdAt", Schema.created),
            .required("updatedAt", Schema.updated),
        ], closed: false).described("A link of the workspace, `https://<domain>/<slug>`, opening an app's typed destination or a web page.")),
        ("LinkCreate", Schema.object(linkProperties(creating: true), closed: true)
            .described("Either `app` with `destination`, or `url`.")
            .example(.object(["domain": .string("links.example.com"), "slug": .string("spring24"),
                              "url": .string("https://www.example.com/spring"),
                              "campaign": .object(["source": .string("newsletter"), "campaign": .string("spring24")])]))),
        ("LinkUpdate", Schema.object(linkProperties(creating: false), closed: true)
            .described("Present members replace (a nested object as a whole), `null` clears an optional one; `domain` and `slug` cannot be cleared.")),
    ]
}
