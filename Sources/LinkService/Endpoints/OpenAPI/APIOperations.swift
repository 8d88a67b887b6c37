import HTTPServer

/// Every endpoint of linkd, as the OpenAPI document describes it: **the one place to add a route's entry.**
///
/// A route registered with the router and missing here (or listed here and not routed) fails
/// `OpenAPIDocumentTests`. An entry names the method, the template exactly as registered, an operationId,
/// a summary, the tag, who may call it, the body and success components; the usual error responses are
/// derived (see `APIOperation`), only extra ones (409, …) are listed.
enum APIOperations {
    static let all: [APIOperation] = service + associationFiles + resolve + links + deferred + keys + teams + apps + destinations + domains + rules + audit + analytics

    /// Path parameters by name: what every `{name}` in a template means.
    static let pathParameters: [String: (schema: Schema, description: String)] = [
        "id": (.uuid, "The resource's id (a UUID), as returned in `id` and in `Location`."),
        "teamId": (APISchemas.teamID, "The Apple team ID."),
        "name": (APISchemas.identifier, "The destination type's name."),
        "language": (Schema.enumeration(["swift", "kotlin", "typescript", "fixtures"]), "The generated router's language, or `fixtures` (docs/CODEGEN.md)."),
        "host": (APISchemas.hostname, "The domain's hostname, e.g. `links.example.com` or `*.example.com` (percent-encode `*` as `%2A` if your client insists)."),
    ]

    // MARK: Service

    static let service: [APIOperation] = [
        APIOperation(.GET, "/healthz", "getHealth", "Liveness: the process is up", tag: "Service", access: .public,
                     success: .json(200, "Health")),
        APIOperation(.GET, "/readyz", "getReadiness", "Readiness: the database answers and its migrations are current", tag: "Service", access: .public,
                     success: .json(200, "Readiness"), errors: [503]),
        APIOperation(.GET, "/metrics", "getMetrics", "Prometheus metrics", tag: "Service", access: .public,
                     success: .content(200, mediaType: "text/plain", schema: Schema.string.described("Prometheus text exposition format 0.0.4."))),
        APIOperation(.GET, "/openapi.json", "getOpenAPIDocument", "This OpenAPI 3.1 document", tag: "Service", access: .public,
                     success: .content(200, mediaType: "application/json", schema: Schema.anyObject.described("An OpenAPI 3.1 document."))),
        APIOperation(.GET, "/v1/tls/ask", "askTLSCertificate", "Whether a TLS front end may get a certificate for a hostname", tag: "Service",
                     access: .public,
                     description: "For Caddy's on-demand TLS `ask`: 200 for a registered link domain, a name a wildcard domain governs and the configured API hostname (`--api-hostname`); 404 for anything else. Answered from the in-memory catalog, without a key (docs/DEPLOYMENT.md).",
                     query: [QueryParameter("domain", APISchemas.hostname, "The hostname a certificate is wanted for.", required: true)],
                     success: .json(200, "TLSAsk"), errors: [404]),
    ]

    // MARK: Association files

    static let associationFiles: [APIOperation] = [
        APIOperation(.GET, "/.well-known/apple-app-site-association", "getAASA", "The apple-app-site-association file of the requested host",
                     tag: "Association files", access: .public,
                     description: "What Apple's CDN fetches. The domain is chosen by `Host` (a wildcard domain's file is served at its root domain). Always 200 with `application/json`, never a redirect; 404 when no link domain is registered for the host.",
                     conditional: true, success: .json(200, "AASAFile", headers: ["ETag", "Last-Modified", "Cache-Control"]), errors: [404]),
        APIOperation(.GET, "/apple-app-site-association", "getAASALegacyLocation", "The apple-app-site-association file at the legacy root location",
                     tag: "Association files", access: .public, description: "The same file as `/.well-known/apple-app-site-association`.",
                     conditional: true, success: .json(200, "AASAFile", headers: ["ETag", "Last-Modified", "Cache-Control"]), errors: [404]),
        APIOperation(.GET, "/.well-known/assetlinks.json", "getAssetLinks", "The Digital Asset Links file of the requested host",
                     tag: "Association files", access: .public, description: "What Android's App Links verifier fetches; chosen by `Host`.",
                     conditional: true, success: .json(200, "AssetLinks", headers: ["ETag", "Last-Modified", "Cache-Control"]), errors: [404]),
        APIOperation(.GET, "/v1/domains/{host}/aasa", "getDomainAASA", "The domain's apple-app-site-association file as served",
                     tag: "Association files", access: .key(.read),
                     conditional: true, success: .json(200, "AASAFile", headers: ["ETag", "Last-Modified", "Cache-Control"])),
        APIOperation(.GET, "/v1/domains/{host}/assetlinks", "getDomainAssetLinks", "The domain's assetlinks.json as served",
                     tag: "Association files", access: .key(.read),
                     conditional: true, success: .json(200, "AssetLinks", headers: ["ETag", "Last-Modified", "Cache-Control"])),
    ]

    // MARK: Landing pages: deferred deep links and QR codes (docs/LANDING.md)

    static let deferred: [APIOperation] = [
        APIOperation(.POST, "/v1/deferred/claim", "claimDeferredLink", "Claim a click token once: the link a person clicked before installing",
                     tag: "Resolve", access: .public,
                     description: """
                        The app calls this on its first launch with the token it found in the Play Install Referrer (`linkd_token=<token>`)                         or, on iOS with `deferredClipboard`, in the claim link on the pasteboard (`https://<domain>/_linkd/claim/<token>`).                         The answer is the resolve answer of the clicked link, once: a second claim and an expired token are 410, an unknown                         one 404. The token is the credential (128 random bits, single use; only its hash is stored), so no key is needed.                         Deterministic only: no IP address, no fingerprint, no probabilistic matching. Claims are hits (`source: claim`).
                        """,
                     body: "DeferredClaim", success: .json(200, "ResolveResult"), errors: [404, 410]),
        APIOperation(.GET, "/v1/qr", "getQRCode", "The QR code of a link on one of the workspace's domains", tag: "Resolve", access: .key(.read),
                     query: [
                        QueryParameter("url", APISchemas.linkURL.with("maxLength", .integer(2000)), "An https link on one of the workspace's link domains.", required: true),
                        QueryParameter("format", .enumeration(["svg", "png"]), "Drawing (default svg)."),
                        QueryParameter("size", Schema.integer(minimum: QRHandlers.sizes.lowerBound, maximum: QRHandlers.sizes.upperBound), "Width in pixels (default \(QRHandlers.defaultSize))."),
                     ],
                     success: .alternatives(200, [
                        ("image/svg+xml", Schema.string.described("An SVG drawing of the code (libqrencode, error correction M, a quiet zone of 4 modules).")),
                        ("image/png", Schema.string.described("An 8-bit grayscale PNG, whole pixels per module.")),
                     ])),
    ]

    // MARK: Resolve

    private static let publicResolveNote = "A server started with public resolve also answers without a key; the URL's host then decides the workspace."

    static let resolve: [APIOperation] = [
        APIOperation(.GET, "/v1/resolve", "resolveURL", "What a URL opens: app, rule and typed destination", tag: "Resolve", access: .key(.read),
                     description: publicResolveNote,
                     query: [
                        QueryParameter("url", APISchemas.linkURL.with("maxLength", .integer(2000)),
                                       "The absolute http(s) link. The whole request target is limited to 8 KiB (414): longer links go to `POST /v1/resolve`.", required: true),
                        QueryParameter("platform", .enumeration(["ios", "android"]), "Whose apps answer (default ios)."),
                        QueryParameter("log", Schema.enumeration(["true", "false", "1", "0"]), "Record the lookup as a hit for analytics (default true)."),
                     ],
                     success: .json(200, "ResolveResult")),
        APIOperation(.POST, "/v1/resolve", "resolveURLs", "Resolve up to 1000 URLs at once", tag: "Resolve", access: .key(.read),
                     description: publicResolveNote + " A URL that is not an absolute http(s) URL is a 422 pointing at it.",
                     body: "ResolveBatchRequest", success: .json(200, "ResolveBatch")),
    ]

    // MARK: Links

    static let links: [APIOperation] = [
        APIOperation(.POST, "/v1/links/build", "buildLinks", "The links that open a typed destination: the inverse of resolve", tag: "Links",
                     access: .key(.read),
                     description: """
                        One link (`{"app", "destination", "domain"?}`) or up to \(LinkBuildHandlers.batchLimit) (`{"links": [...]}`, \
                        answered in order, a failing item as `{"error": <problem>}`). The first rule in order on the domain (the \
                        app's `primaryDomain`, else the oldest domain whose rules name it) bound to the destination type whose \
                        patterns can print the parameters gives the URL, which resolves back to that rule and destination. \
                        422 with pointers for parameters the destination's schema refuses; 422 naming the reason when no rule \
                        can print them (raw AASA patterns only) or an earlier rule or exclusion would decide the URL (docs/LINKS.md).
                        """,
                     body: "LinkBuildRequest", success: .json(200, "LinkBuildAnswer")),
    ]

    // MARK: API keys

    static let keys: [APIOperation] = [
        APIOperation(.POST, "/v1/keys", "createAPIKey", "Create an API key in the caller's workspace", tag: "Keys", access: .key(.admin),
                     description: "The secret `key` is in this response only (sent with `Cache-Control: no-store`); linkd keeps a hash.",
                     body: "APIKeyCreate", success: .created("CreatedAPIKey", etag: false)),
        APIOperation(.GET, "/v1/keys", "listAPIKeys", "List the workspace's API keys, revoked ones included", tag: "Keys", access: .key(.admin),
                     success: .page("APIKey")),
        APIOperation(.GET, "/v1/whoami", "whoAmI", "The caller's workspace and key, with its scope", tag: "Keys", access: .key(.read),
                     description: "Any valid key may ask (dashboards show what a key may do before offering to do it).",
                     success: .json(200, "WhoAmI")),
        APIOperation(.DELETE, "/v1/keys/{id}", "revokeAPIKey", "Revoke an API key, at once on every node", tag: "Keys", access: .key(.admin),
                     success: .noContent),
    ]

    // MARK: Teams

    static let teams: [APIOperation] = [
        APIOperation(.POST, "/v1/teams", "createTeam", "Register an Apple team ID", tag: "Teams", access: .key(.write),
                     body: "TeamCreate", success: .created("Team"), errors: [409]),
        APIOperation(.GET, "/v1/teams", "listTeams", "List team IDs", tag: "Teams", access: .key(.read), success: .page("Team")),
        APIOperation(.GET, "/v1/teams/{teamId}", "getTeam", "Read a team", tag: "Teams", access: .key(.read), success: .resource("Team")),
        APIOperation(.PATCH, "/v1/teams/{teamId}", "updateTeam", "Rename a team", tag: "Teams", access: .key(.write),
                     ifMatch: true, body: "TeamUpdate", success: .resource("Team")),
        APIOperation(.DELETE, "/v1/teams/{teamId}", "deleteTeam", "Delete a team that no app uses", tag: "Teams", access: .key(.write),
                     ifMatch: true, success: .noContent, errors: [409]),
    ]

    // MARK: Apps

    static let apps: [APIOperation] = [
        APIOperation(.POST, "/v1/apps", "createApp", "Register an iOS or Android app", tag: "Apps", access: .key(.write),
                     description: "iOS apps need a team registered in the workspace; the app ID `TEAMID.bundle.id` is derived.",
                     body: "AppCreate", success: .created("App"), errors: [409]),
        APIOperation(.GET, "/v1/apps", "listApps", "List apps", tag: "Apps", access: .key(.read),
                     query: [QueryParameter("platform", .enumeration(["ios", "android"]), "Only apps of this platform.")],
                     success: .page("App")),
        APIOperation(.GET, "/v1/apps/{id}", "getApp", "Read an app", tag: "Apps", access: .key(.read), success: .resource("App")),
        APIOperation(.PATCH, "/v1/apps/{id}", "updateApp", "Change an app", tag: "Apps", access: .key(.write),
                     ifMatch: true, body: "AppUpdate", success: .resource("App"), errors: [409]),
        APIOperation(.DELETE, "/v1/apps/{id}", "deleteApp", "Delete an app that no rule or domain uses", tag: "Apps", access: .key(.write),
                     ifMatch: true, success: .noContent, errors: [409]),
    ] + codegenAndroid

    // MARK: Destination types

    static let destinations: [APIOperation] = [
        APIOperation(.POST, "/v1/apps/{id}/destinations", "createDestination", "Declare a destination type of an app", tag: "Destinations",
                     access: .key(.write), body: "DestinationCreate", success: .created("Destination"), errors: [409]),
        APIOperation(.GET, "/v1/apps/{id}/destinations", "listDestinations", "List an app's destination types", tag: "Destinations",
                     access: .key(.read), success: .page("Destination")),
        APIOperation(.GET, "/v1/apps/{id}/destinations/{name}", "getDestination", "Read a destination type", tag: "Destinations",
                     access: .key(.read), success: .resource("Destination")),
        APIOperation(.PUT, "/v1/apps/{id}/destinations/{name}", "replaceDestination", "Replace a destination type's title and parameters",
                     tag: "Destinations", access: .key(.write), ifMatch: true, body: "DestinationReplace", success: .resource("Destination")),
        APIOperation(.DELETE, "/v1/apps/{id}/destinations/{name}", "deleteDestination", "Delete a destination type no rule leads to",
                     tag: "Destinations", access: .key(.write), ifMatch: true, success: .noContent, errors: [409]),
        APIOperation(.GET, "/v1/apps/{id}/codegen/{language}", "generateRouter", "Generate the app's router, or its fixtures", tag: "Destinations",
                     access: .key(.read),
                     description: "`language` is `swift`, `kotlin` or `typescript`: one self-contained source file with the app's destinations as a type, a decoder of resolve's JSON, `LinkRouter.route` (universal links of every domain whose rules name the app, and its custom scheme: the authority of `widgets://widget/42` is the first path segment), the builder, and a pending-link holder for destinations that require sign-in (docs/CODEGEN.md). `fixtures`: URLs with the destination resolve answers for each (null: the app opens nothing), for an app's CI. The ETag changes with the app's rules and destinations; 404 for another `language`.",
                     conditional: true,
                     success: .alternatives(200, [
                        (mediaType: "text/plain", schema: Schema.string.described("The generated source file; its header names the rules' ETag.")),
                        (mediaType: "application/json", schema: Schema.ref("RouterFixtures")),
                     ])),
    ]

    // MARK: Domains

    static let domains: [APIOperation] = [
        APIOperation(.POST, "/v1/domains", "createDomain", "Register a link domain", tag: "Domains", access: .key(.write),
                     description: "Hostnames are unique across the service: 409 when any workspace has it, when another workspace's wildcard governs it, or when it is a wildcard that would govern another workspace's domain (docs/WORKSPACES.md). 422 at `/hostname`, naming the allowed suffixes, when the operator restricted the workspace to hostname suffixes and the name is under none of them.",
                     body: "DomainCreate", success: .created("Domain"), errors: [409]),
        APIOperation(.GET, "/v1/domains", "listDomains", "List domains", tag: "Domains", access: .key(.read), success: .page("Domain")),
        APIOperation(.GET, "/v1/domains/{host}", "getDomain", "Read a domain", tag: "Domains", access: .key(.read), success: .resource("Domain")),
        APIOperation(.PATCH, "/v1/domains/{host}", "updateDomain", "Change a domain's settings", tag: "Domains", access: .key(.write),
                     description: "The rules are validated again against the new settings.",
                     ifMatch: true, body: "DomainUpdate", success: .resource("Domain")),
        APIOperation(.DELETE, "/v1/domains/{host}", "deleteDomain", "Delete a domain and its rules", tag: "Domains", access: .key(.write),
                     ifMatch: true, success: .noContent),
    ]

    // MARK: Rules

    static let rules: [APIOperation] = [
        APIOperation(.GET, "/v1/domains/{host}/rules", "listRules", "Read the ordered rule list", tag: "Rules", access: .key(.read),
                     description: "Not paginated: the list is one unit (its order is its meaning). The ETag is the list's version.",
                     success: .json(200, "RuleList", headers: ["ETag"])),
        APIOperation(.PUT, "/v1/domains/{host}/rules", "replaceRules", "Replace the whole rule list atomically", tag: "Rules", access: .key(.write),
                     description: "The list is validated as a whole (apps, destination bindings, the generated AASA's lint and size); a failure leaves the old list untouched. `If-Match` takes the list's ETag.",
                     ifMatch: true, body: "RuleListReplace", success: .json(200, "RuleList", headers: ["ETag"])),
        APIOperation(.POST, "/v1/domains/{host}/rules", "insertRule", "Insert a rule at a position", tag: "Rules", access: .key(.write),
                     body: "RuleCreate", success: .created("Rule")),
        APIOperation(.GET, "/v1/domains/{host}/rules/{id}", "getRule", "Read a rule", tag: "Rules", access: .key(.read), success: .resource("Rule")),
        APIOperation(.PATCH, "/v1/domains/{host}/rules/{id}", "updateRule", "Change or move a rule", tag: "Rules", access: .key(.write),
                     ifMatch: true, body: "RuleUpdate", success: .resource("Rule")),
        APIOperation(.DELETE, "/v1/domains/{host}/rules/{id}", "deleteRule", "Delete a rule", tag: "Rules", access: .key(.write),
                     ifMatch: true, success: .noContent),
        APIOperation(.POST, "/v1/domains/{host}/preview", "previewRules", "Preview the association files a rule list generates", tag: "Rules",
                     access: .key(.read), description: "Validates like `PUT …/rules` and returns the AASA, assetlinks and lint report. Saves nothing.",
                     body: "PreviewRequest", success: .json(200, "Preview")),
    ]

    // MARK: Audit log

    static let audit: [APIOperation] = [
        APIOperation(.GET, "/v1/audit", "listAuditEntries", "Every change of the workspace, newest first", tag: "Audit", access: .key(.read),
                     query: [QueryParameter("resourceType", Schema.string(maxLength: 100), "Only changes of this kind of resource, e.g. `rules`.")],
                     success: .page("AuditEntry")),
    ]

    /// The tags, in the order the reference shows them.
    static let tags: [(name: String, description: String)] = [
        ("Service", "Probes, metrics and this document; no credentials."),
        ("Association files", "apple-app-site-association and assetlinks.json, generated from the rules."),
        ("Resolve", "What a link opens: the same semantics iOS applies, then the typed destination."),
        ("Links", "Links built from typed destinations: universal and custom-scheme URLs."),
        ("Keys", "API keys of the caller's workspace (admin scope), and which key is calling (any scope)."),
        ("Teams", "Apple team IDs."),
        ("Apps", "iOS and Android apps."),
        ("Destinations", "The typed in-app screens of an app that links resolve to."),
        ("Domains", "Link domains and their association-file settings."),
        ("Rules", "A domain's ordered path rules: the first match wins."),
        ("Audit", "Who changed what, when."),
        ("Analytics", "Hits (resolves and clicks) counted from hourly rollups: time series, top lists, summary; JSON or CSV."),
    ]
}
