import LinkKit

/// The named schemas of the OpenAPI document (`#/components/schemas/<name>`): every resource as the API
/// returns it and every request body as the API accepts it. This file holds the field shapes several
/// resources share and the problems; each `EndpointGroup` names its own components (`schemas`), declared in an
/// extension beside its handlers (`Endpoints/Teams/APISchemas+Teams.swift`). Request bodies are closed
/// (`additionalProperties: false`) because the API rejects unknown members with a 422 pointing at them.
///
/// List envelopes (`<Name>Page`) are generated from the operations that return pages.
enum APISchemas {
    // MARK: Shared field shapes

    static let teamID = Schema.string(pattern: "^[A-Z0-9]{10}$").described("An Apple team ID: 10 upper-case letters or digits.").example("ABCDE12345")
    static let identifier = Schema.string(pattern: "^[A-Za-z][A-Za-z0-9_]{0,63}$")
    static let created = Schema.timestamp.readOnly.described("When it was created.")
    static let updated = Schema.timestamp.readOnly.described("When it last changed.")
    /// An absolute `https://` URL as `Validators.httpsURL` accepts it (written with RFC 3986's characters, no user
    /// or password): redirect targets and store links in request bodies.
    static let httpsURLInput = Schema.string(
        format: "uri",
        pattern: "^[Hh][Tt][Tt][Pp][Ss]://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/(\(urlCharacter)|/)*)?(\\?(\(urlCharacter)|[/?])*)?(#(\(urlCharacter)|[/?])*)?$",
        maxLength: 2000
    ).described("An absolute `https://` URL.")
    /// A port number, 0 to 65535.
    private static let port = "[0-9]{1,4}|[0-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]"
    /// One character of a URL's path, query or fragment as RFC 3986 writes it (unreserved, sub-delims, `:`, `@`, `%XX`).
    private static let urlCharacter = "[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-Fa-f]{2}"
    /// A link to resolve: an absolute `http` or `https` URL as `AASAURL` splits it (any characters after the
    /// authority: raw ones are percent-encoded as a browser does; a port, when written, is a number), or a
    /// custom-scheme link (any other scheme but `javascript`, `data` and `file`).
    static let linkURL = Schema.string(pattern: "^([Hh][Tt][Tt][Pp][Ss]?://([^/?#]*@)?([^/?#@:\\[\\]]*|\\[[^/?#@\\[\\]]*\\])(:(\(port))?)?([/?#][\\s\\S]*)?"
        + "|(?![Hh][Tt][Tt][Pp][Ss]?:|[Jj][Aa][Vv][Aa][Ss][Cc][Rr][Ii][Pp][Tt]:|[Dd][Aa][Tt][Aa]:|[Ff][Ii][Ll][Ee]:)[A-Za-z][A-Za-z0-9+.-]*:[\\s\\S]*)$")
        .described("""
            An absolute http(s) URL, or a custom-scheme link (`widgets://widget/42`), whose first path segment is read as \
            its path's first segment: `widgets://widget/42` and `widgets:///widget/42` are both the path `/widget/42`.
            """).example("https://links.example.com/widget/42")

    /// What `Hostname` accepts written in ASCII: two labels or more of letters, digits and inner `-` (63 at most),
    /// the last starting with a letter, an optional `*.` first label and trailing dot. Internationalised names
    /// are also accepted and stored in punycode.
    static let hostname = Schema.string(
        pattern: "^(\\*\\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.?$", maxLength: 253
    ).described("The hostname, lower-case, internationalised names in punycode; `*.example.com` covers the subdomains of example.com.")
        .example("links.example.com")

    // MARK: Problems

    static let problems: [(name: String, schema: Schema)] = [
        ("Problem", Schema.object([
            .required("type", .string(format: "uri").described("Stable URI naming the kind of problem; clients may match on it.")
                .example("https://linkd.dev/problems/not-found")),
            .required("title", Schema.string.described("Short summary of the kind; the same for every problem of a type.")),
            .required("status", Schema.integer(minimum: 400, maximum: 599).described("The HTTP status code.")),
            .optional("detail", Schema.string.described("What went wrong this time, for a person.")),
            .optional("errors", Schema.array(.ref("FieldError")).described("Validation failures (422): one per offending field.")),
            .optional("requestId", Schema.string.described("The request id, also sent as X-Request-ID; quote it when reporting a problem.")),
        ], closed: false).described("An RFC 9457 problem detail (`application/problem+json`): the body of every error response.")),
        ("ValidationProblem", Schema([
            JSONMember(key: "allOf", value: .array([Schema.ref("Problem").json, Schema.object([.required("errors", .array(.ref("FieldError"), minItems: 1))], closed: false).json])),
        ]).described("A 422 problem: `errors` lists every offending field of the request body.")),
        ("FieldError", Schema.object([
            .required("pointer", Schema.string.described("RFC 6901 JSON pointer into the request body (`\"\"` is the whole body).").example("/rules/3/path")),
            .required("detail", Schema.string.described("What is wrong with the field.")),
        ], closed: false)),
    ]
}
