import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/domains`: link domains, addressed by hostname, with their association-file settings.
struct DomainHandlers: Sendable {
    let pool: ConnectionPool
    let auth: Authenticator
    let changes: CatalogChanges

    func register(in routes: inout RouterBuilder) {
        routes.add(.POST, "/v1/domains", scope: .write, auth: auth, create)
        routes.add(.GET, "/v1/domains", scope: .read, auth: auth, list)
        routes.add(.GET, "/v1/domains/{host}", scope: .read, auth: auth, get)
        routes.add(.PATCH, "/v1/domains/{host}", scope: .write, auth: auth, update)
        routes.add(.DELETE, "/v1/domains/{host}", scope: .write, auth: auth, delete)
    }

    func create(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let hostname = Validators.hostname(body.string("hostname", required: true, limit: .hostname), at: "/hostname", errors)
        var settings = DomainSettingsInput()
        settings.read(&body)
        body.finish()
        try errors.check()
        let domain = try changes.commit { connection, changed -> Domain in
            try DomainClaims.lock(on: connection)
            try DomainClaims.check(hostname!, workspace: principal.workspaceID, on: connection)
            try checkApps(settings, principal, on: connection)
            let row = try connection.query(Query(unsafeSQL: """
                INSERT INTO domains (workspace_id, hostname, settings) VALUES ($1, $2, $3) RETURNING \(Domain.columns)
                """, binds: [principal.workspaceID, hostname!, JSONB(settings.json.serialized)])).first!
            let domain = try Domain(row: row)
            try AuditLog.record(on: connection, principal, .create, type: "domain", id: domain.hostname, after: domain.json)
            try changed.domainChanged(domain.hostname, on: connection)
            return domain
        }
        return .resource(domain.json, version: domain.version, status: 201, location: domain.location)
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let page = try Page(request)
        let domains = try pool.withConnection { connection in
            try page.rows(of: "domains", columns: Domain.columns, where: "workspace_id = $1", binds: [principal.workspaceID], on: connection, decode: Domain.init(row:))
        }
        return page.response(request, items: domains.map { ($0.json, $0.sortMicros, $0.id) })
    }

    /// The domain, with the last fetch of each association file (when Apple's CDN last picked up which version).
    func get(_ request: Request, _ principal: Principal) throws -> Response {
        let (domain, fetches) = try pool.withConnection { connection in
            let domain = try Domain.find(request.parameters["host"], principal, on: connection)
            let fetches = try connection.query("""
                SELECT file, fetched_at, user_agent, etag, status FROM association_fetches
                WHERE hostname = \(domain.hostname) ORDER BY file
                """).map { row in
                JSONMember(key: try row.decode(0, as: String.self), value: JSONValue.object([
                    "at": .timestamp(try row.decode(1, as: Date.self)),
                    "userAgent": .string(try row.decode(2, as: String.self)),
                    "etag": .optional(try row.decode(3, as: String?.self)),
                    "status": .integer(try row.decode(4, as: Int.self)),
                ]).compacted)
            }
            return (domain, fetches)
        }
        guard case .object(var members) = domain.json else { preconditionFailure("a domain is an object") }
        members.append(JSONMember(key: "lastFetch", value: .object(fetches)))
        return .resource(.object(members), version: domain.version)
    }

    /// Settings only; the hostname is the domain's identity.
    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        if let sent = body.string("hostname"), sent.lowercased() != request.parameters["host"]?.lowercased() {   // null reads as absent
            errors.add("/hostname", "A domain's hostname cannot be changed; register the new hostname as another domain.")
        }
        let domain = try changes.commit { connection, changed -> Domain in
            let before = try Domain.find(request.parameters["host"], principal, on: connection, forUpdate: true)
            var settings = before.settings
            settings.read(&body)
            body.finish()
            try errors.check()
            try ETag.check(request, current: before.version)
            try checkApps(settings, principal, on: connection)
            let proposed = Domain(copying: before, settings: settings)
            // The settings change what the rules generate: validate the whole file again.
            let rules = try StoredRule.all(domain: before.id, on: connection)
            _ = try RuleValidator.validate(rules.map { ($0.id, $0.input, "/rules/\($0.position)") }, domain: proposed, on: connection)
            let row = try connection.query(Query(unsafeSQL: """
                UPDATE domains SET settings = $2, version = version + 1, updated_at = now() WHERE id = $1 RETURNING \(Domain.columns)
                """, binds: [before.id, JSONB(settings.json.serialized)])).first!
            let after = try Domain(row: row)
            try AuditLog.record(on: connection, principal, .update, type: "domain", id: after.hostname, before: before.json, after: after.json)
            try changed.domainChanged(after.hostname, on: connection)
            return after
        }
        return .resource(domain.json, version: domain.version)
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        try changes.commit { connection, changed in
            let domain = try Domain.find(request.parameters["host"], principal, on: connection, forUpdate: true)
            try ETag.check(request, current: domain.version)
            try connection.execute("DELETE FROM domains WHERE id = \(domain.id)")
            try AuditLog.record(on: connection, principal, .delete, type: "domain", id: domain.hostname, before: domain.json)
            try changed.domainChanged(domain.hostname, on: connection)
        }
        return .empty()
    }

    /// `webcredentials` and `appclips` name iOS apps of this workspace.
    private func checkApps(_ settings: DomainSettingsInput, _ principal: Principal, on connection: Connection) throws {
        let errors = FieldErrors()
        let ids = Array(Set(settings.webcredentials + settings.appclips))
        let apps = Dictionary(try DomainLoader.apps(ids, workspace: principal.workspaceID, on: connection).map { ($0.id, $0) },
                              uniquingKeysWith: { first, _ in first })
        for (key, list) in [("webcredentials", settings.webcredentials), ("appclips", settings.appclips)] {
            for (index, id) in list.enumerated() {
                let pointer = "/\(key)/\(index)"
                guard let app = apps[id.canonicalText] else {
                    errors.add(pointer, "No app \(id.canonicalText) in this workspace.")
                    continue
                }
                if key == "appclips", app.platform != .ios { errors.add(pointer, "App Clips are iOS apps; \(app.identifier) is an Android app.") }
            }
        }
        try errors.check()
    }
}

extension Domain {
    /// The same domain with other settings (for validating a proposed change before it is saved).
    init(copying domain: Domain, settings: DomainSettingsInput) {
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
