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
            .optional(LinkFields.targets, nullable: true),
            .optional(LinkFields.variants, nullable: true),
        ]
    }

    /// What a target or a variant opens, as the link's own members.
    private static func openingProperties(fallbacksAndPreview: Bool) -> [Schema.Property] {
        [
            .optional(LinkFields.app, nullable: true),
            .optional(LinkFields.destination.name, Schema.ref("LinkDestination").nullable),
            .optional(LinkFields.url, nullable: true),
        ]
            + (fallbacksAndPreview
                ? [.optional(LinkFields.fallbacks, nullable: true), .optional(LinkFields.preview.name, Schema.ref("LinkPreview").nullable)]
                : [])
    }

    static let links: [(name: String, schema: Schema)] = [
        // Components rather than inline objects, which generators would name `Destination` and `Preview` like the
        // destination types' and the rule preview's components, renaming those.
        ("LinkDestination", LinkFields.destination.schema),
        ("LinkPreview", LinkFields.preview.schema),
        (
            "LinkTarget",
            Schema.object(
                [
                    .required("name", Schema.name(minLength: 1, maxLength: TextLimit.name.scalars)),
                    .required("conditions", Schema.ref("LinkTargetConditions")),
                ] + openingProperties(fallbacksAndPreview: true) + [
                    .optional(
                        "variants", Schema.array(Schema.ref("LinkVariant"), minItems: 2, maxItems: LinkTargeting.maxVariants).nullable)
                ], closed: true
            ).described("A target: when its conditions all hold, it decides what the link opens (`app` with `destination`, or `url`).")
        ),
        (
            "LinkVariant",
            Schema.object(
                [
                    .required("name", Schema.name(minLength: 1, maxLength: TextLimit.name.scalars)),
                    .required("weight", Schema.integer(minimum: 0, maximum: 10_000)),
                    .optional(
                        "stopped",
                        Schema.boolean.nullable.described("A stopped variant gets no new visitors; its visitors go to the others.")),
                ] + openingProperties(fallbacksAndPreview: false), closed: true
            ).described("A variant of an experiment and its share of visitors (its weight over the sum of the weights).")
        ),
        (
            "LinkTargetConditions",
            Schema.object(
                [
                    .optional(
                        "countries",
                        Schema.array(Schema.string(maxLength: 7), minItems: 1).nullable
                            .described("ISO 3166-1 alpha-2 codes, as the GeoIP database names the visitor's country, or `unknown`.")),
                    .optional("platforms", Schema.array(Schema.ref("LinkPlatformRange"), minItems: 1, maxItems: 10).nullable),
                    .optional("devices", Schema.array(Schema.enumeration(LinkTargeting.deviceClasses), minItems: 1).nullable),
                    .optional(
                        "browsers",
                        Schema.array(Schema.string(minLength: 1, maxLength: TextLimit.name.scalars), minItems: 1).nullable
                            .described("Browser families as uap-core names them (`Chrome Mobile`, `Mobile Safari`).")),
                    .optional(
                        "languages",
                        Schema.array(Schema.string(pattern: "^[A-Za-z][A-Za-z0-9-]{0,34}$"), minItems: 1).nullable
                            .described(
                                "Language tags: the visitor's first acceptable language (`Accept-Language`, by quality) matches `de` when it is `de` or `de-AT`."
                            )),
                    .optional(
                        "apps", Schema.array(Schema.uuid, minItems: 1).nullable.described("The app a resolve caller says asks (`app`).")),
                    .optional("window", Schema.ref("LinkTargetWindow").nullable),
                    .optional(
                        "referrers",
                        Schema.array(Schema.hostname, minItems: 1).nullable.described(
                            "The host of the page the visitor came from (`Referer`).")),
                    .optional("utm", Schema.ref("LinkTargetCampaign").nullable),
                ], closed: true
            ).described("What a target asks of a visitor: every condition given must hold.")
        ),
        (
            "LinkPlatformRange",
            Schema.object(
                [
                    .required("platform", Schema.enumeration(DevicePlatform.allCases.map(\.rawValue))),
                    .optional("minVersion", Schema.string(pattern: "^[0-9]{1,6}(\\.[0-9]{1,6}){0,2}$").nullable),
                    .optional("maxVersion", Schema.string(pattern: "^[0-9]{1,6}(\\.[0-9]{1,6}){0,2}$").nullable),
                ], closed: true
            ).described("A device platform, with the OS versions it covers (both ends included).")
        ),
        (
            "LinkTargetWindow",
            Schema.object(
                [
                    .optional("from", Schema.acceptedTimestamp.nullable),
                    .optional("until", Schema.acceptedTimestamp.nullable),
                ], closed: true
            ).described("From `from` (included) until `until` (excluded).")
        ),
        (
            "LinkTargetCampaign",
            Schema.object(
                LinkTargeting.Conditions.utmKeys.map {
                    .optional($0, Schema.string(maxLength: TextLimit.campaign.scalars).nullable)
                }, closed: true
            ).described("The `utm_*` items of the clicked URL, each equal to the value given.")
        ),
        (
            "Link",
            Link.members.schema(closed: false).described(
                "A link of the workspace, `https://<domain>/<slug>`, opening an app's typed destination or a web page.")
        ),
        (
            "LinkCreate",
            Schema.object(linkProperties(creating: true), closed: true)
                .described("Either `app` with `destination`, or `url`.")
                .example(
                    .object([
                        "domain": .string("links.example.com"), "slug": .string("spring24"),
                        "url": .string("https://www.example.com/spring"),
                        "campaign": .object(["source": .string("newsletter"), "campaign": .string("spring24")]),
                    ]))
        ),
        (
            "LinkUpdate",
            Schema.object(linkProperties(creating: false), closed: true)
                .described(
                    "Present members replace (a nested object as a whole), `null` clears an optional one; `domain` and `slug` cannot be cleared."
                )
        ),
    ]
}
