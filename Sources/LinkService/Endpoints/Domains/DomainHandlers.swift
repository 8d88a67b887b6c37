import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/domains`: link domains, addressed by hostname, with their association-file settings.
struct DomainHandlers: EndpointGroup {
    let pool: ConnectionPool
    let changes: CatalogChanges

    private var resource: ResourceEndpoints { ResourceEndpoints(changes: changes) }

    static var schemas: [(name: String, schema: Schema)] { APISchemas.domains }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/domains", "createDomain", "Register a link domain", tag: "Domains", scope: .write,
                description:
                    "Hostnames are unique across the service: 409 when any workspace has it, when another workspace's wildcard governs it, or when it is a wildcard that would govern another workspace's domain (docs/WORKSPACES.md). 422 at `/hostname`, naming the allowed suffixes, when the operator restricted the workspace to hostname suffixes and the name is under none of them.",
                body: "DomainCreate", success: .created("Domain"), errors: [409], create),
            Endpoint(.GET, "/v1/domains", "listDomains", "List domains", tag: "Domains", scope: .read, success: .page("Domain"), list),
            Endpoint(
                .GET, "/v1/domains/{host}", "getDomain", "Read a domain", tag: "Domains", scope: .read, success: .resource("Domain"), get),
            Endpoint(
                .PATCH, "/v1/domains/{host}", "updateDomain", "Change a domain's settings", tag: "Domains", scope: .write,
                description: "The rules are validated again against the new settings.",
                ifMatch: true, body: "DomainUpdate", success: .resource("Domain"), update),
            Endpoint(
                .DELETE, "/v1/domains/{host}", "deleteDomain", "Delete a domain and its rules", tag: "Domains", scope: .write,
                ifMatch: true, success: .noContent, delete),
        ]
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let hostname = Validators.hostname(body.string("hostname", required: true, limit: .hostname), at: "/hostname", errors)
        var settings = DomainSettingsRecord()
        settings.read(&body)
        body.finish()
        try errors.check()
        return try resource.create(principal, location: { location("getDomain", [.host: $0.hostname]) }) { connection, changed in
            try DomainClaims.lock(on: connection)
            try DomainClaims.check(hostname!, workspace: principal.workspaceID, on: connection)
            try checkApps(settings, principal, on: connection)
            let domain = try DomainStore.insert(hostname!, settings: settings, workspace: principal.workspaceID, on: connection)
            try changed.domainChanged(domain.hostname, on: connection)
            return domain
        }
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.list(request) { page, connection in
            try DomainStore.page(page, of: principal.workspaceID, on: connection)
        }
    }

    /// The domain, with the last fetch of each association file (when Apple's CDN last picked up which version).
    func get(_ request: Request, _ principal: Principal) throws -> Response {
        let (domain, fetches) = try pool.withConnection { connection in
            let domain = try Domain.find(request.pathParameter(.host), principal, on: connection)
            return (domain, try DomainStore.lastFetches(domain.hostname, on: connection))
        }
        guard case .object(var members) = domain.json else { preconditionFailure("a domain is an object") }
        members.append(JSONMember(key: "lastFetch", value: .object(fetches)))
        return .resource(.object(members), version: domain.version)
    }

    /// Settings only; the hostname is the domain's identity.
    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        if let sent = body.string("hostname"), sent.lowercased() != request.pathParameter(.host).lowercased() { // null reads as absent
            errors.add("/hostname", "A domain's hostname cannot be changed; register the new hostname as another domain.")
        }
        return try resource.update(
            request, principal,
            find: {
                try Domain.find(request.pathParameter(.host), principal, on: $0, forUpdate: true)
            },
            check: { before, _ -> DomainSettingsRecord in
                var settings = before.settings
                settings.read(&body)
                body.finish()
                try errors.check()
                return settings
            },
            save: { before, settings, connection, changed in
                try checkApps(settings, principal, on: connection)
                let proposed = Domain(copying: before, settings: settings)
                // The settings change what the rules generate: validate the whole file again.
                let rules = try RuleStore.all(domain: before.id, on: connection)
                let outcome = try RuleValidator.validate(
                    rules.map { ($0.id, $0.definition, "/rules/\($0.position)") }, domain: proposed,
                    on: connection, counter: changes.reloader.catalog.compilations)
                let after = try DomainStore.save(before.id, settings: settings, on: connection)
                // This node installs the compilation it validated (`CatalogChanges.commit`): compiled once.
                try changed.domainChanged(after.hostname, to: outcome.entry(after, rules: rules), on: connection)
                return after
            })
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try resource.delete(
            request, principal,
            find: {
                try Domain.find(request.pathParameter(.host), principal, on: $0, forUpdate: true)
            },
            remove: { domain, connection, changed in
                try DomainStore.delete(domain.id, on: connection)
                try changed.domainChanged(domain.hostname, on: connection)
            })
    }

    /// `webcredentials` and `appclips` name iOS apps of this workspace.
    private func checkApps(_ settings: DomainSettingsRecord, _ principal: Principal, on connection: Connection) throws {
        let errors = FieldErrors()
        let ids = Array(Set(settings.webcredentials + settings.appclips))
        let apps = Dictionary(
            try DomainLoader.apps(ids, workspace: principal.workspaceID, on: connection).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first })
        for (key, list) in [("webcredentials", settings.webcredentials), ("appclips", settings.appclips)] {
            for (index, id) in list.enumerated() {
                let pointer = "/\(key)/\(index)"
                guard let app = apps[id.canonicalText] else {
                    errors.add(pointer, "No app \(id.canonicalText) in this workspace.")
                    continue
                }
                if key == "appclips", app.platform != .ios {
                    errors.add(pointer, "App Clips are iOS apps; \(app.identifier) is an Android app.")
                }
            }
        }
        try errors.check()
    }
}

extension Domain {
    /// The same domain with other settings (for validating a proposed change before it is saved).
    init(copying domain: Domain, settings: DomainSettingsRecord) {
        self.id = domain.id
        self.workspaceID = domain.workspaceID
        self.hostname = domain.hostname
        self.settings = settings
        self.version = domain.version
        self.createdAt = domain.createdAt
        self.updatedAt = domain.updatedAt
        self.sortMicros = domain.sortMicros
    }
}
