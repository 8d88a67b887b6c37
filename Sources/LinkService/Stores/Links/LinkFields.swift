import Foundation
import LinkKit

/// The members of the links' request bodies, each declared once for the document and for `LinkInput`, which reads
/// them (`BodyField`); the nested objects' members are declared here too.
enum LinkFields {
    /// A hostname, normalised; whether it is a link domain of the caller's workspace is the handler's question.
    static let domain = BodyField.hostname(
        "domain", Schema.hostname.described("A link domain of this workspace."),
        refusal: "domain must be the hostname of a link domain of this workspace.")
    static let slug = BodyField.validated(
        "slug",
        Schema.string(pattern: LinkSlug.pattern, maxLength: TextLimit.slug.scalars).described(
            """
            The path after the domain: one or more segments of letters, digits and `. _ ~ -` joined by `/` (no `.` or `..` segment), \
            compared exactly; not one the service serves itself (`.well-known`, `v1`, `console`, ...). Generated when absent \
            (the domain's `linkSlugLength` characters, without look-alikes).
            """
        ).example("spring24"), limit: .slug
    ) { text, pointer, errors in
        guard let text else { return nil }
        if let problem = LinkSlug.problem(text) {
            errors.add(pointer, problem)
            return nil
        }
        return text
    }
    static let app = BodyField<UUID>(
        "app", schema: Schema.uuid.described("The app whose typed `destination` the link opens (with `destination`, without `url`).")
    ) { body, name, required in
        body.string(name, required: required).flatMap { text in
            guard let id = UUID(uuidString: text) else {
                body.errors.add(body.at(name), "app must be an app id (a UUID).")
                return nil
            }
            return id
        }
    }
    /// The destination as `POST /v1/links/build` takes it (`DestinationInput`).
    static let destination = BodyField<DestinationInput>(
        "destination",
        schema: Schema.object(
            [
                .required("type", Schema.identifier),
                .optional(
                    "params",
                    Schema.map(.oneOf([.string, .integer, .boolean])).nullable
                        .described("The parameters, typed as the destination declares them: ints as numbers, bools as booleans.")),
            ], closed: true)
    ) { body, name, required in
        DestinationInput(reading: &body, name, required: required)
    }
    static let url = BodyField.validated(
        "url", Schema.httpsURLInput.described("The web page the link opens (without `app` and `destination`)."),
        limit: .url, Validators.httpsURL)
    static let name = BodyField.text("name", limit: .name, "A name for people.")
    static let tags = BodyField<[String]>(
        "tags",
        schema: Schema.array(
            Schema.name(minLength: 1, maxLength: TextLimit.tag.scalars),
            maxItems: LinkInput.maxTags)
    ) { body, name, required in
        guard let tags = body.strings(name, required: required, maxCount: LinkInput.maxTags, limit: .tag) else { return nil }
        if tags.contains(where: \.isEmpty) {
            body.errors.add(body.at(name), "A tag cannot be empty.")
            return nil
        }
        return tags
    }
    static let expiresAt = BodyField<Date>(
        "expiresAt",
        schema: Schema.acceptedTimestamp.described(
            """
            When the link stops opening its destination (RFC 3339, \(RFC3339.acceptedText); kept to the millisecond).
            """)
    ) { body, name, required in
        body.string(name, required: required).flatMap { text in
            let reading = RFC3339.read(text)
            guard case .date(let date) = reading else {
                body.errors.add(body.at(name), RFC3339.refusal(name, reading))
                return nil
            }
            return date
        }
    }
    static let maxClicks = BodyField<Int64>(
        "maxClicks", schema: Schema.integer(minimum: 1).described("After this many clicks the link stops opening its destination.")
    ) { body, name, required in
        guard let count = body.integer(name, required: required) else { return nil }
        guard count >= 1 else {
            body.errors.add(body.at(name), "maxClicks must be at least 1.")
            return nil
        }
        return count
    }
    static let data = BodyField<JSONValue>(
        "data",
        schema: Schema.anyObject.described(
            """
            A JSON object handed to the app with the resolve answer and the deferred claim: at most \(LinkInput.dataLimit) bytes serialized.
            """)
    ) { body, name, required in
        switch body.value(name) {
        case nil, .null?:
            if required { body.errors.add(body.at(name), "'\(name)' is required.") }
            return nil
        case .object(let members)?:
            let value = JSONValue.object(members)
            guard value.serializedBytes.count <= LinkInput.dataLimit else {
                body.errors.add(body.at(name), "data must be at most \(LinkInput.dataLimit) bytes of JSON.")
                return nil
            }
            return value
        case let other?:
            body.errors.add(body.at(name), "'\(name)' must be an object, not \(other.typeName).")
            return nil
        }
    }

    /// `targets`: who opens what (`LinkTargeting`), in order.
    static let targets = BodyField<[LinkTargeting.Target]>(
        "targets",
        schema: Schema.array(Schema.ref("LinkTarget"), minItems: 1, maxItems: LinkTargeting.maxTargets)
            .described(
                """
                Targets, in order: the first whose conditions all hold for a visitor decides what the link opens for them; the link's own \
                destination is the default. A target that can never decide (an earlier one holds for all its visitors, an unknown \
                country, an empty window or list) is refused (docs/LINKS.md, "Targeting and experiments").
                """)
    ) { body, name, required in
        guard let elements = body.array(name, required: required, maxCount: LinkTargeting.maxTargets) else { return nil }
        if elements.isEmpty {
            body.errors.add(body.at(name), "targets cannot be empty: send null to remove them.")
            return nil
        }
        return LinkTargeting.targets(elements, errors: body.errors)
    }
    /// `variants`: the link's own experiment.
    static let variants = BodyField<[LinkTargeting.Variant]>(
        "variants",
        schema: Schema.array(Schema.ref("LinkVariant"), minItems: 2, maxItems: LinkTargeting.maxVariants)
            .described(
                """
                An experiment: visitors the link's own destination would serve are split between the variants by weight, each keeping \
                its variant (docs/LINKS.md, "Targeting and experiments").
                """)
    ) { body, name, required in
        guard let elements = body.array(name, required: required, maxCount: LinkTargeting.maxVariants) else { return nil }
        return LinkTargeting.variants(elements, at: body.at(name), errors: body.errors)
    }

    /// `fallbacks`: where each platform goes when the app does not open the link, beside the store page (the
    /// website to continue to) unless the link says `skipStore`.
    enum Fallback {
        static let ios = BodyField.validated("ios", Schema.httpsURLInput, limit: .url, Validators.httpsURL)
        static let ipad = BodyField.validated("ipad", Schema.httpsURLInput, limit: .url, Validators.httpsURL)
        static let android = BodyField.validated("android", Schema.httpsURLInput, limit: .url, Validators.httpsURL)
        static let desktop = BodyField.validated("desktop", Schema.httpsURLInput, limit: .url, Validators.httpsURL)
        static let all = [ios, ipad, android, desktop]
    }
    static let fallbacks = BodyField<JSONValue>(
        "fallbacks",
        schema: Schema.object(Fallback.all.map { .optional($0, nullable: true) }, closed: true)
            .described(
                """
                Per-platform fallback URLs (Firebase's `ifl`, `ipfl`, `afl`, `ofl`): where a device goes when the app does not open the link. \
                A fallback replaces the web fallback, not the store: a phone without the app still gets the store page (the landing \
                page's banner and "Get the app", or the redirect) with the click token of the deferred deep link, and the fallback as \
                "Continue to the website" (or the redirect when there is no store page). `skipStore` sends phones to it instead of the store. \
                Past `expiresAt` or `maxClicks`, every device goes to its fallback.
                """)
    ) { body, name, required in
        LinkInput.strings(&body, name, required: required, Fallback.all)
    }
    static let skipStore = BodyField.flag(
        "skipStore",
        """
        `true`: a phone without the app goes to the link's fallback for its platform (else the domain's web fallback) \
        instead of the App Store or Google Play, so without the store's banner and without a deferred deep link (no click \
        token). Default `false`: the store first, the fallback beside it. Has no effect on a link to a web page (`url`).
        """)

    /// `campaign`: the `utm_*` values of the link's taps.
    enum Campaign {
        static let source = BodyField.text("source", limit: .campaign)
        static let medium = BodyField.text("medium", limit: .campaign)
        static let campaign = BodyField.text("campaign", limit: .campaign)
        static let term = BodyField.text("term", limit: .campaign)
        static let content = BodyField.text("content", limit: .campaign)
        static let all = [source, medium, campaign, term, content]
    }
    static let campaign = BodyField<Link.Campaign>(
        "campaign",
        schema: Schema.object(Campaign.all.map { .optional($0, nullable: true) }, closed: true)
            .described("The campaign its taps are recorded under (`utm_source`, `utm_medium`, `utm_campaign`, `utm_term`, `utm_content`).")
    ) { body, name, required in
        LinkInput.strings(&body, name, required: required, Campaign.all).map { object in
            Link.Campaign(
                source: object["source"]?.stringValue, medium: object["medium"]?.stringValue, campaign: object["campaign"]?.stringValue,
                term: object["term"]?.stringValue, content: object["content"]?.stringValue)
        }
    }

    /// `preview`: the social card of the link.
    enum Preview {
        static let title = BodyField.text("title", limit: .name)
        static let description = BodyField.text("description", limit: .previewDescription)
        static let imageURL = BodyField.validated(
            "imageUrl", Schema.httpsURLInput.described("An https image for preview cards."), limit: .url, Validators.httpsURL)
        static let all = [title, description, imageURL]
    }
    static let preview = BodyField<JSONValue>(
        "preview",
        schema: Schema.object(Preview.all.map { .optional($0, nullable: true) }, closed: true)
            .described("The social preview (title, description, image).")
    ) { body, name, required in
        LinkInput.strings(&body, name, required: required, Preview.all)
    }
}
