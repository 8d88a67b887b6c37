import LinkKit

/// The named schemas of the OpenAPI document (`#/components/schemas/<name>`): every resource as the API
/// returns it and every request body as the API accepts it. This file holds the problems (the field shapes
/// several resources share are `Schema`'s, `Input/Schema+Shapes.swift`); each `EndpointGroup` names its own components (`schemas`), declared in an
/// extension beside its handlers (`Endpoints/Teams/APISchemas+Teams.swift`). Request bodies are closed
/// (`additionalProperties: false`) because the API rejects unknown members with a 422 pointing at them.
///
/// List envelopes (`<Name>Page`) are generated from the operations that return pages.
enum APISchemas {
    // MARK: Problems

    static let problems: [(name: String, schema: Schema)] = [
        (
            "Problem",
            Schema.object(
                [
                    .required(
                        "type",
                        .string(format: "uri").described("Stable URI naming the kind of problem; clients may match on it.")
                            .example("https://linkd.dev/problems/not-found")),
                    .required("title", Schema.string.described("Short summary of the kind; the same for every problem of a type.")),
                    .required("status", Schema.integer(minimum: 400, maximum: 599).described("The HTTP status code.")),
                    .optional("detail", Schema.string.described("What went wrong this time, for a person.")),
                    .optional("errors", Schema.array(.ref("FieldError")).described("Validation failures (422): one per offending field.")),
                    .optional(
                        "requestId",
                        Schema.string.described("The request id, also sent as X-Request-ID; quote it when reporting a problem.")),
                ], closed: false
            ).described("An RFC 9457 problem detail (`application/problem+json`): the body of every error response.")
        ),
        (
            "ValidationProblem",
            Schema([
                JSONMember(
                    key: "allOf",
                    value: .array([
                        Schema.ref("Problem").json,
                        Schema.object([.required("errors", .array(.ref("FieldError"), minItems: 1))], closed: false).json,
                    ]))
            ]).described("A 422 problem: `errors` lists every offending field of the request body.")
        ),
        (
            "FieldError",
            Schema.object(
                [
                    .required(
                        "pointer",
                        Schema.string.described("RFC 6901 JSON pointer into the request body (`\"\"` is the whole body).").example(
                            "/rules/3/path")),
                    .required("detail", Schema.string.described("What is wrong with the field.")),
                ], closed: false)
        ),
    ]
}
