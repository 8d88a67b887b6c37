import LinkKit

/// The components of the destination types endpoints (`OpenAPIDocument`).
extension APISchemas {
    private static let optionalFlag = Schema.boolean.described("A link may leave it out (default false).")

    static let destinations: [(name: String, schema: Schema)] = [
        (
            "Destination",
            Destination.members.schema(closed: false).described("A destination type: one typed in-app screen an app has.")
        ),
        (
            "DestinationCreate",
            Schema.object(
                [
                    .required(DestinationFields.name),
                    .optional(DestinationFields.title, nullable: true),
                    .optional(DestinationFields.description, nullable: true),
                    .optional(DestinationFields.imageURL, nullable: true),
                    .optional("params", ParameterSpecJSON.schema),
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
                    .optional("params", ParameterSpecJSON.schema),
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
