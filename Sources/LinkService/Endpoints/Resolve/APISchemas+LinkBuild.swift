import Foundation
import LinkKit

/// The components of `POST /v1/links/build` (`OpenAPIDocument`).
extension APISchemas {
    static let linkBuild: [(name: String, schema: Schema)] = [
        ("LinkBuild", Schema.object([
            .required("app", Schema.uuid.described("The app the link opens.")),
            .optional("domain", Schema.hostname.nullable.described("The link domain to build on (default: the app's `primaryDomain`, else the oldest domain whose rules name it).")),
            .required("destination", Schema.object([
                .required("type", Schema.identifier),
                .optional("params", Schema.map(.oneOf([.string, .integer, .boolean])).nullable
                    .described("The parameters, typed as the destination declares them: ints as numbers, bools as booleans.")),
            ], closed: true)),
        ], closed: true).example(.object(["app": .string("7d1c1b7e-3c4f-4b65-9a57-0d4b8e9a1f10"),
                                          "destination": .object(["type": .string("widgetDetail"), "params": .object(["id": .integer(42)])])]))),
        ("LinkBuildRequest", Schema.oneOf([
            .ref("LinkBuild"),
            Schema.object([
                .required("links", Schema.array(.ref("LinkBuild"), maxItems: LinkBuildHandlers.batchLimit)),
            ], closed: true),
        ])),
        ("BuiltLink", Schema.object([
            .required("universal", Schema.url),
            .optional("scheme", Schema.string.described("Present when the app has a custom scheme.")),
            .required("domain", Schema.string),
            .required("rule", Schema.object([
                .required("id", .uuid),
                .required("position", Schema.integer(minimum: 0)),
            ], closed: false).described("The rule that prints the link, and that resolve names for it.")),
        ], closed: false)),
        ("LinkBuildAnswer", Schema.oneOf([
            .ref("BuiltLink"),
            Schema.object([
                .required("results", Schema.array(Schema.oneOf([
                    .ref("BuiltLink"),
                    Schema.object([.required("error", .ref("Problem"))], closed: false),
                ])).described("One result per link, in order.")),
            ], closed: false),
        ])),
    ]
}
