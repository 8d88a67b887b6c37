import Foundation
import LinkKit

/// The components of the resolve endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let resolve: [(name: String, schema: Schema)] = [
        (
            "ResolveResult",
            Schema.object(
                [
                    .required("url", Schema.string.described("The URL as asked.")),
                    .required(
                        "outcome",
                        Schema.enumeration(["open_app", "excluded", "no_match", "unknown_domain", "unknown_scheme", "invalid_param"])
                            .described(
                                """
                                `open_app`: an app opens it (with `destination`); `invalid_param`: the app opens it but the destination cannot be \
                                built (`destination.error` says why); `excluded`: an exclusion rule keeps the apps out; `no_match`: no rule claims it; \
                                `unknown_domain`: no link domain of the caller governs the host; `unknown_scheme`: no app of the workspace registered \
                                the custom scheme. Without an app, the browser opens the URL. A custom-scheme link goes to the app that registered \
                                the scheme on the platform asked: only that app's rules on its deciding domain decide (`open_app` or `no_match`).
                                """)),
                    .optional(
                        "reason",
                        Schema.enumeration(["not_https", "user_info", "scheme_of_other_platform"]).described(
                            """
                            Only with `no_match` for a URL no app of the platform can open, so no rule was asked: `not_https` (universal \
                            links are https URLs), `user_info` (the URL carries `user:password@`), `scheme_of_other_platform` (only an \
                            app of the other platform registered the custom scheme; `domain` is that app's deciding domain).
                            """)),
                    .required("platform", Schema.enumeration(["ios", "android"])),
                    .required(
                        "domain",
                        Schema.string.described(
                            """
                            The link domain that decided (the URL's host when none): for a custom-scheme link, the app's `primaryDomain`, \
                            else the oldest domain whose rules name it (empty for `unknown_scheme`).
                            """)),
                    .optional("app", Schema.ref("ResolvedApp")),
                    .optional(
                        "rule", Schema.ref("RulePosition").described("The rule that decided; absent when a stored link did (`link`).")),
                    .optional("destination", Schema.ref("ResolvedDestination")),
                    .optional("links", Schema.ref("Links")),
                    .optional(
                        "requiresSignIn",
                        Schema.boolean.described("Present (true) when the destination is for signed-in users (docs/CODEGEN.md).")),
                    .optional("link", Schema.ref("ResolvedLink")),
                    .optional(
                        "targeted",
                        Schema.boolean.described(
                            """
                            Present (true) when the stored link is targeted (docs/LINKS.md, "Targeting and experiments"): what it opens depends on \
                            the visitor, so a router asks resolve with the visitor's context (`country`, `language`, `visitorId`, `app`) rather \
                            than routing it offline.
                            """)),
                    .optional(
                        "target",
                        Schema.string.nullable.described("With `targeted`: the target that decided; null for the link's own destination.")),
                    .optional(
                        "variant",
                        Schema.string.nullable.described("With `targeted`: the experiment's variant the visitor has; null when none.")),
                    .required(
                        "fallbacks",
                        Schema.object(
                            [
                                .optional("web", Schema.url.described("The domain's web fallback (with the link's path when configured).")),
                                .optional("appStore", Schema.url),
                                .optional("playStore", Schema.url),
                            ], closed: false
                        ).described("Where to send the user when the app is not installed or no app opens the link.")),
                ], closed: false
            ).described("What a URL opens, why, and where inside the app: the same semantics iOS applies to the AASA file.")
        ),
        (
            "ResolvedApp",
            Schema.object(
                [
                    .required("id", .uuid),
                    .required("platform", Schema.enumeration(["ios", "android"])),
                    .optional("appId", Schema.string.described("iOS: `TEAMID.bundle.id`.")),
                    .optional("packageName", Schema.string.described("Android: the package name.")),
                ], closed: false
            ).described("The app that opens the URL, or whose exclusion decided.")
        ),
        (
            "RulePosition",
            Schema.object(
                [
                    .required("id", .uuid),
                    .required("position", Schema.integer(minimum: 0)),
                ], closed: false
            ).described("The rule that decided (or prints a link) and its place in the list.")
        ),
        (
            "ResolvedLink",
            Schema.object(
                [
                    .required("id", .uuid),
                    .required("slug", Schema.string),
                    .optional(
                        "url",
                        Schema.url.described(
                            "The web page a link to a web page opens (while it is live); an app opened by the link space hands it to the browser."
                        )),
                    .optional(
                        "expired",
                        Schema.boolean.described(
                            "Present (true) past the link's `expiresAt` or `maxClicks`: the destination is then the `link_expired` error.")),
                    .optional("name", Schema.string),
                    .optional(
                        "campaign",
                        Schema.object(
                            LinkFields.Campaign.all.map { .optional($0.name, Schema.string) }, closed: true)),
                    .optional("data", Schema.object([], closed: false).described("The link's data for the app, as stored.")),
                ], closed: true
            ).described("The stored link at the URL (docs/LINKS.md, \"Serving links\"): its destination is the answer's.")
        ),
        (
            "Links",
            Schema.object(
                [
                    .required("universal", Schema.url.described("The https link on the domain that decided (a wildcard domain's root).")),
                    .optional(
                        "scheme",
                        Schema.string.described("The app's custom-scheme link, when it has a scheme: `widgets://widget/42?tab=reviews`.")),
                ], closed: false
            ).described("The URLs that open this destination in the app.")
        ),
        (
            "RouterFixtures",
            Schema.object(
                [
                    .required("app", .uuid),
                    .required("etag", Schema.string.described("The rules' ETag, as in a generated file's header.")),
                    .required(
                        "fixtures",
                        Schema.array(
                            Schema.object(
                                [
                                    .required("url", Schema.string),
                                    .required(
                                        "outcome",
                                        Schema.string.described(
                                            "resolve's outcome (for a custom-scheme URL: that of the https URL of the same path).")),
                                    .required("destination", Schema.ref("ResolvedDestination").nullable),
                                    .optional(
                                        "needsResolve",
                                        Schema.boolean.described(
                                            """
                                            Present (true) for a targeted link: the router hands it to resolve (`decide` answers needs \
                                            resolve, `route` null).
                                            """)),
                                ], closed: false))),
                    .required(
                        "builds",
                        Schema.array(
                            Schema.object(
                                [
                                    .required("destination", Schema.ref("TypedDestination")),
                                    .optional(
                                        "universal",
                                        Schema.url.described("What `POST /v1/links/build` answers, and the router's `build` must.")),
                                    .optional("scheme", Schema.string),
                                    .optional(
                                        "error",
                                        Schema.object(
                                            [
                                                .optional(
                                                    "param",
                                                    Schema.string.described(
                                                        "The parameter the server refuses (its problem's pointer ends with it).")),
                                                .required("detail", Schema.string.described("The server's reason, word for word.")),
                                            ], closed: false
                                        ).described(
                                            "Why the server builds no link: the router's `build` refuses too, naming the same parameter.")),
                                ], closed: false)
                        ).described("Destinations and what the server's builder answers for each.")),
                ], closed: false
            ).described("URLs and what the app's generated router must answer for each; destinations and what its builder must answer.")
        ),
        // The union's members are components: generators name (and write) a model per component, where inline
        // members holding further objects left some without one.
        (
            "ResolvedDestination",
            Schema.oneOf([.ref("TypedDestination"), .ref("DestinationFailure")])
                .described("The typed in-app destination, or why it could not be built.")
        ),
        (
            "TypedDestination",
            Schema.object(
                [
                    .required("type", Schema.identifier),
                    .required(
                        "params",
                        Schema.map(.oneOf([.string, .integer, .boolean])).described("Typed values: ints as numbers, bools as booleans.")),
                ], closed: false
            ).example(.object(["type": .string("widgetDetail"), "params": .object(["id": .integer(42)])]))
                .described("The destination the app opens: its type and typed parameters.")
        ),
        (
            "DestinationFailure",
            Schema.object(
                [
                    .required("error", Schema.ref("DestinationError"))
                ], closed: false
            ).described("The app opens, but the destination cannot be built: an explicit error, never a silent nothing.")
        ),
        (
            "DestinationError",
            Schema.object(
                [
                    .required("code", Schema.enumeration(["invalid_param", "missing_param", "unknown_destination", "link_expired"])),
                    .optional("param", Schema.string),
                    .required("detail", Schema.string),
                ], closed: false
            ).described("Why the destination cannot be built, and the parameter at fault.")
        ),
        (
            "ResolveBatchRequest",
            Schema.object(
                [
                    .required(
                        "urls",
                        Schema.array(
                            Schema.linkURL.with("maxLength", .integer(TextLimit.resolveURL.scalars)), maxItems: ResolveHandlers.batchLimit
                        )
                        .described("Absolute http(s) URLs, each at most \(TextLimit.resolveURL.bytes) bytes of UTF-8.")),
                    .optional("platform", Schema.enumeration(["ios", "android"]).described("Whose apps answer (default ios).")),
                    .optional("log", Schema.boolean.described("Record the lookups as hits for analytics (default true).")),
                ] + ResolveVisitorContext.bodyMembers, closed: true
            ).described("The URLs and, for targeted links, the visitor's context, as `GET /v1/resolve` takes it in its query.")
        ),
        ("DeferredClaim", Schema.object([.required(ClaimFields.token)], closed: true)),
        (
            "ResolveBatch",
            Schema.object(
                [
                    .required("results", Schema.array(.ref("ResolveResult")).described("One answer per URL, in order."))
                ], closed: false)
        ),
    ]
}
