import LinkKit

/// The components of the links endpoints (`OpenAPIDocument`), written from `LinkFields` and `Link.members`.
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
        ("Link", Link.members.schema(closed: false).described(
            "A link of the workspace, `https://<domain>/<slug>`, opening an app's typed destination or a web page.")),
        ("LinkCreate", Schema.object(linkProperties(creating: true), closed: true)
            .described("Either `app` with `destination`, or `url`.")
            .example(.object(["domain": .string("links.example.com"), "slug": .string("spring24"),
                              "url": .string("https://www.example.com/spring"),
                              "campaign": .object(["source": .string("newsletter"), "campaign": .string("spring24")])]))),
        ("LinkUpdate", Schema.object(linkProperties(creating: false), closed: true)
            .described("Present members replace (a nested object as a whole), `null` clears an optional one; `domain` and `slug` cannot be cleared.")),
    ]
}
