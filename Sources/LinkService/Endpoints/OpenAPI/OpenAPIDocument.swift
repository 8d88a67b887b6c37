import HTTPServer
import LinkKit

/// The OpenAPI 3.1 document of the whole service, assembled from the application's `Endpoint`s and
/// `APISchemas` (the components). Built once at startup and served as bytes by `GET /openapi.json`.
enum OpenAPIDocument {
    /// The document.
    /// - Parameters:
    ///   - endpoints: the endpoints to describe; those not documented (the console's pages) are left out.
    ///   - schemas: the components they name, besides the shared problems (`APISchemas.problems`).
    ///   - events: the webhook events linkd sends (OpenAPI 3.1's `webhooks`), each with the component of its body.
    static func build(
        _ endpoints: [Endpoint], schemas: [(name: String, schema: Schema)],
        events: [(name: String, summary: String, schema: String)] = []
    ) -> JSONValue {
        let operations = endpoints.filter(\.isDocumented)
        return .object([
            "openapi": .string("3.1.0"),
            "info": info,
            "tags": .array(tags.map { .object(["name": .string($0.name), "description": .string($0.description)]) }),
            "paths": paths(operations),
            "webhooks": webhooks(events),
            "components": components(operations, schemas: APISchemas.problems + schemas),
        ])
    }

    /// One `POST` per event: the signed body a subscription's URL receives (docs/WEBHOOKS.md).
    private static func webhooks(_ events: [(name: String, summary: String, schema: String)]) -> JSONValue {
        .object(
            events.map { event in
                JSONMember(
                    key: event.name,
                    value: .object([
                        "post": .object([
                            "summary": .string(event.summary),
                            "description": .string(
                                "Sent with the Standard Webhooks headers `webhook-id` (the event's id), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the subscription's secret)."
                            ),
                            "requestBody": .object(["required": .bool(true), "content": jsonContent(.ref(event.schema))]),
                            "responses": .object([
                                "2XX": .object(["description": .string("Taken: the delivery is done.")]),
                                "default": .object([
                                    "description": .string(
                                        "Any other answer, or none within the timeout, is a failure: the event is sent again later.")
                                ]),
                            ]),
                        ])
                    ]))
            })
    }

    /// Path parameters by name: what every `{name}` in a template means.
    static let pathParameters: [String: (schema: Schema, description: String)] = [
        "id": (.uuid, "The resource's id (a UUID), as returned in `id` and in `Location`."),
        "teamId": (Schema.teamID, "The Apple team ID."),
        "name": (Schema.identifier, "The destination type's name."),
        "language": (
            Schema.enumeration(CodegenLanguage.allCases.map(\.rawValue)),
            "The generated router's language, or `fixtures` (docs/CODEGEN.md)."
        ),
        "n": (Schema.integer(minimum: 1, maximum: Int(Int32.max)), "The number of a version of the domain's association files."),
        "deliveryId": (Schema.string(pattern: "^[0-9]{1,19}$"), "A webhook delivery's id, as the delivery log shows it."),
        "personId": (.uuid, "A person's id, as the member list shows it in `person.id`."),
        "host": (
            Schema.hostname,
            "The domain's hostname, e.g. `links.example.com` or `*.example.com` (percent-encode `*` as `%2A` if your client insists)."
        ),
    ]

    /// The tags, in the order the reference shows them.
    static let tags: [(name: String, description: String)] = [
        ("Service", "Probes, metrics and this document; no credentials."),
        ("Association files", "apple-app-site-association and assetlinks.json, generated from the rules."),
        ("Resolve", "What a link opens: the same semantics iOS applies, then the typed destination."),
        ("Links", "Links built from typed destinations: universal and custom-scheme URLs."),
        ("Keys", "API keys of the caller's workspace (admin scope), and which key is calling (any scope)."),
        (
            "Sessions",
            "People signing in with an email and a password: their sessions (a cookie), switching workspace, signing out, setting a password."
        ),
        ("Teams", "Apple team IDs."),
        ("Apps", "iOS and Android apps."),
        ("Destinations", "The typed in-app screens of an app that links resolve to."),
        ("Domains", "Link domains and their association-file settings."),
        ("Rules", "A domain's ordered path rules: the first match wins."),
        ("Members", "The people of the caller's workspace and their roles; password resets."),
        ("Invitations", "Invitations to join the workspace by email, as one-time links, and their acceptance."),
        ("Audit", "Who changed what, when."),
        ("Webhooks", "Signed events sent to a workspace's subscribers (Standard Webhooks), and their delivery log (admin scope)."),
        ("Single sign-on", "A workspace's OpenID Connect provider (owners only), and signing in through it from a browser."),
        ("Analytics", "Hits (resolves and clicks) counted from hourly rollups: time series, top lists, summary; JSON or CSV."),
        (
            "Events",
            "Installs, opens and named events reported by apps and servers, each attributed to the link that brought it (docs/EVENTS.md)."
        ),
    ]

    private static let info: JSONValue = .object([
        "title": .string("linkd"),
        "version": .string("1"),
        "summary": .string("Self-hosted deep links: apps, link domains, ordered path rules, association files, resolve and analytics."),
        "description": .string(
            """
            Conventions of every `/v1` call:

            - **Authentication**: `Authorization: Bearer <key>`. Keys belong to one workspace and have a scope \
            (`read` ⊂ `write` ⊂ `admin`); another workspace's resources answer 404, exactly as if they did not exist. \
            Without `Authorization`, the `linkd_session` cookie of a person signed in (`POST /v1/sessions`) authenticates, \
            in the session's workspace with the person's role there, only from this server's own origin: a write with it \
            must send `Origin` or `Sec-Fetch-Site: same-origin` (403 otherwise), and CORS never admits it.
            - **Roles**: every caller acts as a role in its workspace (`viewer` ⊂ `editor` ⊂ `admin` ⊂ `owner`; a key as the \
            one it was created with). Each operation lists the roles that may call it in `x-linkd-roles`; any other gets a 403.
            - **Bodies** are JSON with camelCase members, sent as `Content-Type: application/json`. Unknown members are rejected (422). \
            Optional members accept `null`: on create it is the same as leaving the member out; a `PATCH` says per field whether it clears it. \
            No string may hold NUL (`\\u0000`, or `%00` in a path or query parameter): 422 or 400. Lengths count Unicode code points.
            - **Limits** of the HTTP layer, for every operation: a body over 1 MiB is a 413, a request target over 8 KiB a 414, \
            a header section over 16 KiB a 431, a malformed request a 400, an HTTP version other than 1.x a 505, and a new \
            connection while every connection is busy at the connection limit a 503 with `Retry-After`, all `application/problem+json`.
            - **Errors** are `application/problem+json` (RFC 9457) with a stable `type`; validation failures (422) list \
            `errors: [{"pointer", "detail"}]` with a JSON pointer to each offending field.
            - **Concurrency**: every resource has an `ETag`; `PATCH`, `PUT` and `DELETE` honour `If-Match` (412 when it changed).
            - **Lists** are cursor-paginated (`limit` ≤ 200, opaque `cursor`); `next` and the `Link` header give the next page.
            - Every response carries `X-Request-ID` (a sane one sent by the client is kept), except the association \
            files served to CDNs and devices, which carry one only when the client sent it \
            (why: linkd's docs/DESIGN.md, "Request ids").

            Any other path requested on a link domain is a link click: linkd answers it from the same rules             (an app-store, web-fallback or preview redirect), outside this API.
            """),
    ])

    // MARK: Paths

    private static func paths(_ operations: [Endpoint]) -> JSONValue {
        var order: [String] = []
        var byPath: [String: [Endpoint]] = [:]
        for operation in operations {
            if byPath[operation.path] == nil { order.append(operation.path) }
            byPath[operation.path, default: []].append(operation)
        }
        return .object(
            order.map { path in
                let operations = byPath[path]!
                var members: [JSONMember] = []
                let names = operations[0].pathParameterNames
                if !names.isEmpty { members.append(JSONMember(key: "parameters", value: .array(names.map(pathParameter)))) }
                for operation in operations {
                    members.append(JSONMember(key: operation.method.rawValue.lowercased(), value: json(operation)))
                }
                return JSONMember(key: path, value: .object(members))
            })
    }

    private static func pathParameter(_ name: String) -> JSONValue {
        let known = pathParameters[name]
        var members: [JSONMember] = [
            JSONMember(key: "name", value: .string(name)),
            JSONMember(key: "in", value: .string("path")),
            JSONMember(key: "required", value: .bool(true)),
        ]
        if let known { members.append(JSONMember(key: "description", value: .string(known.description))) }
        members.append(JSONMember(key: "schema", value: (known?.schema ?? .string).json))
        return .object(members)
    }

    private static func json(_ operation: Endpoint) -> JSONValue {
        var members: [JSONMember] = [
            JSONMember(key: "tags", value: .array([.string(operation.tag)])),
            JSONMember(key: "summary", value: .string(operation.summary)),
        ]
        var description = operation.description ?? ""
        if case .key(let scope) = operation.access {
            let roles = operation.allowedRoles.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            description +=
                (description.isEmpty ? "" : "\n\n")
                + "Needs a key with the `\(scope.rawValue)` scope, and a caller acting as one of the roles \(roles) (`x-linkd-roles`)."
        }
        if !description.isEmpty { members.append(JSONMember(key: "description", value: .string(description))) }
        members.append(JSONMember(key: "operationId", value: .string(operation.operationID)))
        if !operation.allowedRoles.isEmpty {
            members.append(JSONMember(key: "x-linkd-roles", value: .array(operation.allowedRoles.map { .string($0.rawValue) })))
        }

        var parameters: [JSONValue] = []
        if case .page = operation.success { parameters += [reference("parameters", "Limit"), reference("parameters", "Cursor")] }
        for query in operation.query {
            parameters.append(
                .object([
                    "name": .string(query.name), "in": .string("query"), "required": .bool(query.required),
                    "description": .string(query.description), "schema": query.schema.json,
                ]))
        }
        if operation.ifMatch { parameters.append(reference("parameters", "IfMatch")) }
        if operation.conditional { parameters += [reference("parameters", "IfNoneMatch"), reference("parameters", "IfModifiedSince")] }
        if !parameters.isEmpty { members.append(JSONMember(key: "parameters", value: .array(parameters))) }

        if let body = operation.body {
            members.append(
                JSONMember(
                    key: "requestBody",
                    value: .object([
                        "required": .bool(body.required),
                        "content": body.media.isEmpty
                            ? .object(["application/json": .object(["schema": Schema.ref(body.schema).json])])
                            : .object(body.media.map { JSONMember(key: $0.mediaType, value: .object(["schema": $0.schema.json])) }),
                    ])))
        }

        var responses = [success(operation)]
        if operation.conditional { responses.append(JSONMember(key: "304", value: reference("responses", "NotModified"))) }
        for status in operation.errorStatuses {
            guard let response = errorResponses.first(where: { $0.status == status }) else {
                preconditionFailure(
                    "\(operation.operationID): no reusable response for status \(status); add one to OpenAPIDocument.errorResponses")
            }
            responses.append(JSONMember(key: String(status), value: reference("responses", response.name)))
        }
        if case .key = operation.access { responses.append(JSONMember(key: "default", value: reference("responses", "Error"))) }
        members.append(JSONMember(key: "responses", value: .object(responses)))

        let security: JSONValue =
            switch operation.access {
            case .public: .array([])
            case .key(let scope):
                .array([.object(["bearerAuth": .array([.string(scope.rawValue)])]), .object(["sessionCookie": .array([])])])
            }
        members.append(JSONMember(key: "security", value: security))
        return .object(members)
    }

    private static func success(_ operation: Endpoint) -> JSONMember {
        let (status, description, headers, content): (Int, String, [String], JSONValue?)
        switch operation.success {
        case .resource(let name):
            (status, description, headers, content) = (
                200, "The resource; its `ETag` is the version to send in `If-Match`.", ["ETag"], jsonContent(.ref(name))
            )
        case .created(let name, let etag):
            (status, description, headers, content) = (
                201, "Created; `Location` is the new resource's path.", etag ? ["Location", "ETag"] : ["Location"], jsonContent(.ref(name))
            )
        case .page(let name, let csv):
            var media = [JSONMember(key: "application/json", value: .object(["schema": Schema.ref(name + "Page").json]))]
            if let csv { media.append(JSONMember(key: "text/csv", value: .object(["schema": csv.json]))) }
            (status, description, headers, content) = (
                200, "One page, in a stable order; `next` and the `Link` header give the next page.", ["Link"], .object(media)
            )
        case .noContent:
            (status, description, headers, content) = (204, "Done; no body.", [], nil)
        case .json(let code, let name, let names):
            (status, description, headers, content) = (code, "OK.", names, jsonContent(.ref(name)))
        case .content(let code, let mediaType, let schema):
            (status, description, headers, content) = (code, "OK.", [], .object([mediaType: .object(["schema": schema.json])]))
        case .alternatives(let code, let media):
            (status, description, headers, content) = (
                code, "OK.", [],
                .object(
                    media.map {
                        JSONMember(key: $0.mediaType, value: .object(["schema": $0.schema.json]))
                    })
            )
        }
        var members = [JSONMember(key: "description", value: .string(operation.successDescription ?? description))]
        if !headers.isEmpty {
            members.append(JSONMember(key: "headers", value: .object(headers.map { JSONMember(key: $0, value: reference("headers", $0)) })))
        }
        if let content { members.append(JSONMember(key: "content", value: content)) }
        return JSONMember(key: String(status), value: .object(members))
    }

    private static func jsonContent(_ schema: Schema) -> JSONValue {
        .object(["application/json": .object(["schema": schema.json])])
    }

    private static func reference(_ section: String, _ name: String) -> JSONValue {
        .object(["$ref": .string("#/components/\(section)/\(name)")])
    }

    // MARK: Components

    /// The reusable error responses, by status.
    static let errorResponses: [(status: Int, name: String, description: String, schema: String)] = [
        (
            400, "BadRequest",
            "Malformed: the request itself (its request line, `Host` or `Content-Length`), a body that is not JSON, or `limit`, `cursor` or another query parameter.",
            "Problem"
        ),
        (401, "Unauthorized", "No API key, or an unknown or revoked one.", "Problem"),
        (
            403, "Forbidden",
            "The key's scope, or the role the caller acts as (`x-linkd-roles`), does not allow this call; or a session cookie came with a request from another origin, or a write with it did not show its origin.",
            "Problem"
        ),
        (404, "NotFound", "No such resource in the caller's workspace (another workspace's resources answer exactly this).", "Problem"),
        (409, "Conflict", "The change conflicts with another resource: a duplicate, or one still in use.", "Problem"),
        (410, "Gone", "The resource is gone for good: a click token that was claimed already or expired.", "Problem"),
        (
            412, "PreconditionFailed",
            "`If-Match` does not name the current ETag: the resource changed since it was read. Read it again and retry.", "Problem"
        ),
        (413, "ContentTooLarge", "The body is larger than the server accepts (1 MiB by default); nothing was read or changed.", "Problem"),
        (414, "URITooLong", "The request target (path and query) is longer than the server accepts (8 KiB by default).", "Problem"),
        (
            415, "UnsupportedMediaType",
            "The body is not sent as `Content-Type: application/json` (or, where the operation takes another, one of its media types).",
            "Problem"
        ),
        (
            422, "ValidationFailed", "The body is JSON but invalid; `errors` points at every offending field, unknown ones included.",
            "ValidationProblem"
        ),
        (429, "TooManyRequests", "Too many failed attempts (sign-ins): wait the seconds `Retry-After` says.", "Problem"),
        (431, "HeadersTooLarge", "The header section is larger than the server accepts (16 KiB by default).", "Problem"),
        (502, "BadGateway", "A server linkd must ask could not be asked or answered wrongly: a workspace's identity provider.", "Problem"),
        (
            503, "ServiceUnavailable",
            "Temporarily unable: the database is unreachable or not answering (with `Retry-After`), or its migrations are pending or inconsistent. `/readyz` says which in `database`: `unreachable`, `not-answering` or `ok`. Also, for any operation, every connection busy at the server's connection limit (`Retry-After: 1`).",
            "Problem"
        ),
        (505, "HTTPVersionNotSupported", "The request's HTTP version is not 1.0 or 1.1.", "Problem"),
    ]

    private static func components(_ operations: [Endpoint], schemas named: [(name: String, schema: Schema)]) -> JSONValue {
        var schemas = named.map { JSONMember(key: $0.name, value: $0.schema.json) }
        for operation in operations {
            guard case .page(let name, _) = operation.success, !schemas.contains(where: { $0.key == name + "Page" }) else { continue }
            schemas.append(JSONMember(key: name + "Page", value: page(of: name).json))
        }
        var responses = errorResponses.map { response in
            JSONMember(key: response.name, value: problemResponse(response.description, schema: response.schema))
        }
        responses.append(
            JSONMember(
                key: "Error",
                value: problemResponse(
                    "Any other failure: 500 (details stay in the server's log), or 503 with `Retry-After` while the database is unavailable (a key this node has not verified before cannot be checked then).",
                    schema: "Problem")))
        responses.append(
            JSONMember(
                key: "NotModified",
                value: .object([
                    "description": .string("The client's copy is current (its `If-None-Match` or `If-Modified-Since`); no body."),
                    "headers": .object(
                        ["ETag", "Last-Modified", "Cache-Control"].map { JSONMember(key: $0, value: reference("headers", $0)) }),
                ])))
        return .object([
            "schemas": .object(schemas),
            "responses": .object(responses),
            "parameters": .object([
                "Limit": .object([
                    "name": .string("limit"), "in": .string("query"), "required": .bool(false),
                    "description": .string("Page size, 1 to \(Page.maxLimit)."),
                    "schema": Schema.integer(minimum: 1, maximum: Page.maxLimit).with("default", .integer(Page.defaultLimit)).json,
                ]),
                "Cursor": .object([
                    "name": .string("cursor"), "in": .string("query"), "required": .bool(false),
                    "description": .string("Opaque: where the previous page ended, from its `next`."),
                    "schema": Schema.string(maxLength: Page.maxCursorLength).json,
                ]),
                "IfNoneMatch": .object([
                    "name": .string("If-None-Match"), "in": .string("header"), "required": .bool(false),
                    "description": .string("ETags of copies the client has; 304 when one is current."),
                    "schema": Schema.string.json,
                ]),
                "IfModifiedSince": .object([
                    "name": .string("If-Modified-Since"), "in": .string("header"), "required": .bool(false),
                    "description": .string("An HTTP date; 304 when the file has not changed since (ignored when If-None-Match is sent)."),
                    "schema": Schema.string.json,
                ]),
                "IfMatch": .object([
                    "name": .string("If-Match"), "in": .string("header"), "required": .bool(false),
                    "description": .string(
                        "The `ETag` the change is based on; 412 when the resource has changed since. Absent or `*`: no check."),
                    "schema": Schema.string.example(.string("\"v3\"")).json,
                ]),
            ]),
            "headers": .object([
                "ETag": .object([
                    "description": .string("The resource's version (`\"v3\"`): send it in `If-Match`."), "schema": Schema.string.json,
                ]),
                "Location": .object(["description": .string("Path of the created resource."), "schema": Schema.string.json]),
                "Last-Modified": .object(["description": .string("When the file last changed (HTTP date)."), "schema": Schema.string.json]),
                "Cache-Control": .object(["description": .string("How long caches may keep the file."), "schema": Schema.string.json]),
                "Link": .object([
                    "description": .string("`<next page>; rel=\"next\"` when there is another page."), "schema": Schema.string.json,
                ]),
                "Set-Cookie": .object([
                    "description": .string(
                        "The session cookie: `linkd_session=<token>; Path=/; Max-Age=…; HttpOnly; SameSite=Lax` (and `Secure` over HTTPS)."),
                    "schema": Schema.string.json,
                ]),
            ]),
            "securitySchemes": .object([
                "bearerAuth": .object([
                    "type": .string("http"), "scheme": .string("bearer"), "bearerFormat": .string("lk_<key id>_<secret>"),
                    "description": .string(
                        "An API key (`linkd keys create` or `POST /v1/keys`). The role named by an operation's requirement is the scope it needs."
                    ),
                ]),
                "sessionCookie": .object([
                    "type": .string("apiKey"), "in": .string("cookie"), "name": .string("linkd_session"),
                    "description": .string(
                        "A person's session (`POST /v1/sessions`), used when no `Authorization` header is sent: the person acts in the session's workspace with their role there (viewer: `read`, editor: `write`, admin and owner: `admin`). Only from this server's origin; writes need `Origin` or `Sec-Fetch-Site: same-origin`."
                    ),
                ]),
            ]),
        ])
    }

    private static func page(of name: String) -> Schema {
        Schema.object(
            [
                .required("items", Schema.array(.ref(name))),
                .required("next", Schema.string.nullable.described("Path and query of the next page; `null` on the last page.")),
                .optional(
                    "total",
                    Schema.integer(minimum: 0).described(
                        "How many items the list holds with its filters, counted with the first page (a list that counts: links).")),
            ], closed: false
        ).described("One page of a list.")
    }

    private static func problemResponse(_ description: String, schema: String) -> JSONValue {
        .object([
            "description": .string(description),
            "content": .object(["application/problem+json": .object(["schema": Schema.ref(schema).json])]),
        ])
    }
}
