import LinkKit

/// The components of the association versions endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let associationVersions: [(name: String, schema: Schema)] = [
        (
            "AssociationVersion",
            AssociationVersion.members.schema(closed: false)
                .described("One version of a domain's served association files.")
        ),
        (
            "AssociationVersionFiles",
            AssociationVersion.members.schema(
                closed: false,
                adding: [
                    .required("aasa", Schema.ref("AASAFile")),
                    .required("assetlinks", Schema.ref("AssetLinks")),
                    .required(
                        "snapshot",
                        Schema.anyObject.described(
                            "What decided its URLs: the domain's `settings`, its `rules` (`id`, `definition`, `apps`) in order, and its link space (`links`)."
                        )),
                ]
            ).described("A version with both files as they were served.")
        ),
        (
            "JSONDifference",
            Schema.object(
                [
                    .required(
                        "operations",
                        Schema.array(
                            Schema.object(
                                [
                                    .required(
                                        "op", Schema.string.with("enum", .array([.string("add"), .string("remove"), .string("replace")]))),
                                    .required("path", Schema.string.described("RFC 6901 pointer into the document.")),
                                    .optional(
                                        "from",
                                        Schema([])
                                            .described("What was there (`remove`, `replace`).")),
                                    .optional(
                                        "value",
                                        Schema([])
                                            .described("What is there now (`add`, `replace`).")),
                                ], closed: false))),
                    .required("cut", Schema.boolean.described("Whether more operations than the 1,000 listed were left out.")),
                ], closed: false
            ).described("The difference of two JSON documents, as JSON-Patch-like operations.")
        ),
        (
            "URLDecision",
            Schema.object(
                [
                    .required(
                        "outcome",
                        Schema.string.with("enum", .array(["open_app", "invalid_param", "excluded", "no_match"].map(JSONValue.string)))),
                    .optional("app", Schema.ref("ResolvedApp")),
                    .optional(
                        "destination",
                        Schema.oneOf([.ref("TypedDestination"), .ref("DestinationFailure"), .ref("LinkedDestination")])
                            .described("The destination as resolve answers it; for a stored link, its type and slug.")),
                ], closed: false
            ).described("What a platform's devices do with a URL under one version.")
        ),
        (
            "LinkedDestination",
            Schema.object(
                [
                    .required("type", Schema.identifier),
                    .required(
                        "link",
                        Schema.string.described("The stored link's slug: its parameters are the link's, the same under every version.")),
                ], closed: false
            ).described("The destination of a stored link at the URL.")
        ),
        (
            "URLMove",
            Schema.object(
                [
                    .required("url", Schema.string),
                    .required("ios", platformMove),
                    .required("android", platformMove),
                ], closed: false
            ).described("A URL whose decision differs on at least one platform.")
        ),
        (
            "MoveCorpus",
            Schema.object(
                [
                    .required("size", Schema.integer(minimum: 0).described("URLs compared.")),
                    .required("cut", Schema.boolean.described("Whether a bound left URLs out (20,000 in all, 2,000 hit, 10,000 links).")),
                    .required("examples", Schema.integer(minimum: 0).described("URLs printed from the rules' templates.")),
                    .required("hits", Schema.integer(minimum: 0).described("URLs hit in the last 7 days.")),
                    .required("links", Schema.integer(minimum: 0).described("The domain's stored links.")),
                ], closed: false
            ).described("The URLs whose decisions were compared.")
        ),
        (
            "AssociationDiff",
            Schema.object(
                [
                    .required("from", diffSide),
                    .required("to", diffSide),
                    .required("aasa", Schema.ref("JSONDifference")),
                    .required("assetlinks", Schema.ref("JSONDifference")),
                    .required("moved", Schema.array(.ref("URLMove"))),
                    .required("corpus", Schema.ref("MoveCorpus")),
                    .required(
                        "warnings", Schema.array(.string).described("A version whose recompilation does not give back its stored files.")),
                ], closed: false
            ).described("What changed between two versions of a domain's association files.")
        ),
    ]

    private static let platformMove = Schema.object(
        [
            .required("from", Schema.ref("URLDecision")),
            .required("to", Schema.ref("URLDecision")),
            .required("changed", Schema.boolean),
        ], closed: false)

    private static let diffSide = AssociationVersion.members.schema(
        closed: false,
        adding: [
            .required(
                "recompiled",
                Schema.object([.required("aasa", Schema.boolean), .required("assetlinks", Schema.boolean)], closed: false)
                    .described("Whether the version's rules, compiled with the workspace's apps now, give back its stored files."))
        ])
}
