import HTTPServer

/// Every endpoint of linkd, as the OpenAPI document describes it: **the one place to add a route's entry.**
///
/// A route registered with the router and missing here (or listed here and not routed) fails
/// `OpenAPIDocumentTests`. An entry names the method, the template exactly as registered, an operationId,
/// a summary, the tag, who may call it, the body and success components; the usual error responses are
/// derived (see `APIOperation`), only extra ones (409, …) are listed.
enum APIOperations {
    static let all: [APIOperation] = service + keys + teams + apps + destinations + domains + rules

    /// Path parameters by name: what every `{name}` in a template means.
    static let pathParameters: [String: (schema: Schema, description: String)] = [
        "id": (.uuid, "The resource's id (a UUID), as returned in `id` and in `Location`."),
        "teamId": (APISchemas.teamID, "The Apple team ID."),
        "name": (APISchemas.identifier, "The destination type's name."),
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
    ]

    // MARK: API keys

    static let keys: [APIOperation] = [
        APIOperation(.POST, "/v1/keys", "createAPIKey", "Create an API key in the caller's workspace", tag: "Keys", access: .key(.admin),
                     description: "The secret `key` is in this response only (sent with `Cache-Control: no-store`); linkd keeps a hash.",
                     body: "APIKeyCreate", success: .created("CreatedAPIKey", etag: false)),
        APIOperation(.GET, "/v1/keys", "listAPIKeys", "List the workspace's API keys, revoked ones included", tag: "Keys", access: .key(.admin),
                     success: .page("APIKey")),
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
                     query: [QueryParameter(name: "platform", schema: .enumeration(["ios", "android"]), description: "Only apps of this platform.")],
                     success: .page("App")),
        APIOperation(.GET, "/v1/apps/{id}", "getApp", "Read an app", tag: "Apps", access: .key(.read), success: .resource("App")),
        APIOperation(.PATCH, "/v1/apps/{id}", "updateApp", "Change an app", tag: "Apps", access: .key(.write),
                     ifMatch: true, body: "AppUpdate", success: .resource("App"), errors: [409]),
        APIOperation(.DELETE, "/v1/apps/{id}", "deleteApp", "Delete an app that no rule or domain uses", tag: "Apps", access: .key(.write),
                     ifMatch: true, success: .noContent, errors: [409]),
    ]

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
    ]

    // MARK: Domains

    static let domains: [APIOperation] = [
        APIOperation(.POST, "/v1/domains", "createDomain", "Register a link domain", tag: "Domains", access: .key(.write),
                     description: "Hostnames are unique across the service: 409 when any workspace has it.",
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
                     success: .json(200, "RuleList", etag: true)),
        APIOperation(.PUT, "/v1/domains/{host}/rules", "replaceRules", "Replace the whole rule list atomically", tag: "Rules", access: .key(.write),
                     description: "The list is validated as a whole (apps, destination bindings, the generated AASA's lint and size); a failure leaves the old list untouched. `If-Match` takes the list's ETag.",
                     ifMatch: true, body: "RuleListReplace", success: .json(200, "RuleList", etag: true)),
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

    /// The tags, in the order the reference shows them.
    static let tags: [(name: String, description: String)] = [
        ("Service", "Probes, metrics and this document; no credentials."),
        ("Keys", "API keys of the caller's workspace (admin scope)."),
        ("Teams", "Apple team IDs."),
        ("Apps", "iOS and Android apps."),
        ("Destinations", "The typed in-app screens of an app that links resolve to."),
        ("Domains", "Link domains and their association-file settings."),
        ("Rules", "A domain's ordered path rules: the first match wins."),
    ]
}
