import LinkKit

/// The components of the destination types endpoints (`OpenAPIDocument`).
extension APISchemas {
    private static let parameterMap = Schema.map(.ref("ParameterSpec")).with("propertyNames", Schema.identifier.json)
        .described("The typed parameters, by name.")
        .example(
            .object([
                "id": .object(["type": .string("int"), "min": .integer(1)]),
                "tab": .object(["type": .string("enum"), "values": .array([.string("info"), .string("reviews")]), "optional": .bool(true)]),
            ]))
    private static let optionalFlag = Schema.boolean.described("A link may leave it out (default false).")

    static let destinations: [(name: String, schema: Schema)] = [
        (
            "Destination",
            Schema.object(
                [
                    .required("name", Schema.identifier.described("The type's name, unique per app: what resolve answers as `type`.")),
                    .optional("title", Schema.string(maxLength: 200)),
                    .optional("description", Schema.string(maxLength: 500).described("Preview cards and the landing page.")),
                    .optional("imageUrl", Schema.url.described("An https image for preview cards.")),
                    .required("params", parameterMap),
                    .required(
                        "requiresSignIn",
                        Schema.boolean.described(
                            "Links to it are for signed-in users: resolve says so, and a generated router keeps it until the app reports a signed-in user (default false)."
                        )),
                    .required("createdAt", Schema.created),
                    .required("updatedAt", Schema.updated),
                ], closed: false
            ).described("A destination type: one typed in-app screen an app has.")
        ),
        (
            "DestinationCreate",
            Schema.object(
                [
                    .required(DestinationFields.name),
                    .optional(DestinationFields.title, nullable: true),
                    .optional(DestinationFields.description, nullable: true),
                    .optional(DestinationFields.imageURL, nullable: true),
                    .optional("params", parameterMap),
                    .optional(DestinationFields.requiresSignIn, nullable: true),
                ], closed: true)
        ),
        (
            "DestinationReplace",
            Schema.object(
                [
                    .optional(
                        "name",
                        Schema.identifier.described("If sent, must be the name in the path: the name is the address and cannot change.")),
                    .optional(DestinationFields.title, nullable: true),
                    .optional(DestinationFields.description, nullable: true),
                    .optional(DestinationFields.imageURL, nullable: true),
                    .optional("params", parameterMap),
                    .optional(DestinationFields.requiresSignIn, nullable: true),
                ], closed: true
            ).described("Replaces title, preview metadata and parameters: absent ones become empty.")
        ),
        (
            "ParameterSpec",
            Schema.oneOf(
                [.ref("StringParameter"), .ref("IntParameter"), .ref("UUIDParameter"), .ref("BoolParameter"), .ref("EnumParameter")],
                discriminator: "type",
                mapping: [
                    "string": "StringParameter", "int": "IntParameter", "uuid": "UUIDParameter",
                    "bool": "BoolParameter", "enum": "EnumParameter",
                ])
        ),
        (
            "StringParameter",
            Schema.object(
                [
                    .required("type", .constant("string")),
                    .optional("minLength", Schema.integer(minimum: 0)),
                    .optional("maxLength", Schema.integer(minimum: 0)),
                    .optional("optional", optionalFlag),
                ], closed: true)
        ),
        (
            "IntParameter",
            Schema.object(
                [
                    .required("type", .constant("int")),
                    .optional("min", Schema.integer.described("Smallest accepted value (64-bit).")),
                    .optional("max", Schema.integer.described("Largest accepted value (64-bit).")),
                    .optional("optional", optionalFlag),
                ], closed: true)
        ),
        ("UUIDParameter", Schema.object([.required("type", .constant("uuid")), .optional("optional", optionalFlag)], closed: true)),
        ("BoolParameter", Schema.object([.required("type", .constant("bool")), .optional("optional", optionalFlag)], closed: true)),
        (
            "EnumParameter",
            Schema.object(
                [
                    .required("type", .constant("enum")),
                    .required("values", Schema.array(.string, minItems: 1, maxItems: 200, unique: true)),
                    .optional("optional", optionalFlag),
                ], closed: true)
        ),
    ]
}
