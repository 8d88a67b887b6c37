import Foundation
import LinkKit

/// The components of `POST /v1/links/build` (`OpenAPIDocument`).
extension APISchemas {
    static let linkBuild: [(name: String, schema: Schema)] = [
        (
            "LinkBuild",
            Schema.object(
                [
                    .required("app", Schema.uuid.described("The app the link opens.")),
                    .optional(
                        "domain",
                        Schema.hostname.nullable.described(
                            "The link domain to build on (default: the app's `primaryDomain`, else the oldest domain whose rules name it).")
                    ),
                    .required("destination", Schema.ref("LinkDestination")),
                ], closed: true
            ).example(
                .object([
                    "app": .string("7d1c1b7e-3c4f-4b65-9a57-0d4b8e9a1f10"),
                    "destination": .object(["type": .string("widgetDetail"), "params": .object(["id": .integer(42)])]),
                ]))
        ),
        // Union members are components (generators write a model per component; see ResolvedDestination).
        ("LinkBuildRequest", Schema.oneOf([.ref("LinkBuild"), .ref("LinkBuildBatch")])),
        (
            "LinkBuildBatch",
            Schema.object(
                [
                    .required("links", Schema.array(.ref("LinkBuild"), maxItems: LinkBuildHandlers.batchLimit))
                ], closed: true
            ).described("Several links to build at once.")
        ),
        (
            "BuiltLink",
            Schema.object(
                [
                    .required("universal", Schema.url),
                    .optional("scheme", Schema.string.described("Present when the app has a custom scheme.")),
                    .required("domain", Schema.string),
                    .required("rule", Schema.ref("RulePosition")),
                ], closed: false)
        ),
        ("LinkBuildAnswer", Schema.oneOf([.ref("BuiltLink"), .ref("BuiltLinkBatch")])),
        (
            "BuiltLinkBatch",
            Schema.object(
                [
                    .required("results", Schema.array(.ref("BuiltLinkResult")).described("One result per link, in order."))
                ], closed: false
            ).described("The answer to several links: one result each.")
        ),
        ("BuiltLinkResult", Schema.oneOf([.ref("BuiltLink"), .ref("BatchItemFailure")])),
    ]
}
