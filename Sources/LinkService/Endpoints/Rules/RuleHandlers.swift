import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/domains/{host}/rules`: a domain's ordered rule list (order is meaning: the first match wins).
///
/// Every change goes through `change(...)`: the whole resulting list is validated (and its association
/// file generated and linted) before anything is saved, the domain's version (the list's ETag) is bumped,
/// the change is audited and announced to every node; this node installs the list's validated compilation.
struct RuleHandlers: EndpointGroup {
    let pool: ConnectionPool
    let changes: CatalogChanges

    static var schemas: [(name: String, schema: Schema)] { APISchemas.rules }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/domains/{host}/rules", "listRules", "Read the ordered rule list", tag: "Rules", scope: .read,
                description: "Not paginated: the list is one unit (its order is its meaning). The ETag is the list's version.",
                success: .json(200, "RuleList", headers: ["ETag"]), list),
            Endpoint(
                .PUT, "/v1/domains/{host}/rules", "replaceRules", "Replace the whole rule list atomically", tag: "Rules", scope: .write,
                description:
                    "The list is validated as a whole (apps, destination bindings, the generated AASA's lint and size); a failure leaves the old list untouched. `If-Match` takes the list's ETag.",
                ifMatch: true, body: "RuleListReplace", success: .json(200, "RuleList", headers: ["ETag"]), replace),
            Endpoint(
                .POST, "/v1/domains/{host}/rules", "insertRule", "Insert a rule at a position", tag: "Rules", scope: .write,
                body: "RuleCreate", success: .created("Rule"), insert),
            Endpoint(
                .GET, "/v1/domains/{host}/rules/{id}", "getRule", "Read a rule", tag: "Rules", scope: .read, success: .resource("Rule"), get
            ),
            Endpoint(
                .PATCH, "/v1/domains/{host}/rules/{id}", "updateRule", "Change or move a rule", tag: "Rules", scope: .write,
                ifMatch: true, body: "RuleUpdate", success: .resource("Rule"), update),
            Endpoint(
                .DELETE, "/v1/domains/{host}/rules/{id}", "deleteRule", "Delete a rule", tag: "Rules", scope: .write,
                ifMatch: true, success: .noContent, delete),
            Endpoint(
                .POST, "/v1/domains/{host}/preview", "previewRules", "Preview the association files a rule list generates", tag: "Rules",
                scope: .read,
                description:
                    "Validates like `PUT …/rules` and returns the AASA, assetlinks and lint report, and the URLs whose decision the list would change against what the domain serves now (`moved`, as `GET …/association/diff` lists them). Saves nothing.",
                body: "PreviewRequest", success: .json(200, "Preview"), preview),
        ]
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let (domain, rules) = try pool.withConnection { connection in
            let domain = try Domain.find(request.pathParameter(.host), principal, on: connection)
            return (domain, try RuleStore.all(domain: domain.id, on: connection))
        }
        return .resource(.object(["items": .array(rules.map(\.json))]), version: domain.version)
    }

    /// `PUT {"rules": [...]}`: the whole list, atomically (what dashboards and config-as-code send).
    func replace(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let elements = body.array("rules", required: true, maxCount: 10_000) ?? []
        body.finish()
        let inputs = elements.map { RuleDefinition($0.value, at: $0.pointer, errors: errors, allowIdentity: true) }
        try errors.check()
        let (domain, rules) = try change(
            request, principal, action: .replace, checkVersion: { domain, _ in try ETag.check(request, current: domain.version) }
        ) { current in
            let currentIDs = Set(current.map(\.id))
            var used: Set<UUID> = []
            return zip(inputs, elements).map { input, element in
                // Keep an id only when it is one of this domain's rules (and not repeated).
                let id = input.id.flatMap { currentIDs.contains($0) && used.insert($0).inserted ? $0 : nil } ?? UUID()
                return (id, input, element.pointer)
            }
        }
        return .resource(.object(["items": .array(rules.map(\.json))]), version: domain.version)
    }

    /// `POST` one rule, at `position` (default: the end).
    func insert(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        guard var members = try JSONBody.parse(request).objectMembers else {
            throw ServiceError.validation([.init(pointer: "", detail: "The body must be a JSON object (one rule).")])
        }
        let position = Self.position(&members, errors: errors)
        let input = RuleDefinition(.object(members), at: "", errors: errors, allowIdentity: false)
        try errors.check()
        let id = UUID()
        let (domain, rules) = try change(request, principal, action: .create) { current in
            var list = current.map { ($0.id, $0.definition, "") }
            let index = min(position ?? list.count, list.count)
            list.insert((id, input, ""), at: index)
            return list
        }
        let rule = rules.first { $0.id == id }!
        return .resource(
            rule.json, version: rule.version, status: 201,
            location: location("getRule", [.host: domain.hostname, .id: id.canonicalText]))
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        let rule = try pool.withConnection { connection -> StoredRule in
            let domain = try Domain.find(request.pathParameter(.host), principal, on: connection)
            return try Self.find(request, in: RuleStore.all(domain: domain.id, on: connection))
        }
        return .resource(rule.json, version: rule.version)
    }

    /// `PATCH`: present fields replace the rule's (`null` clears), `position` moves it.
    func update(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        let patch = try JSONBody.parse(request)
        guard var members = patch.objectMembers else {
            throw ServiceError.validation([.init(pointer: "", detail: "The body must be a JSON object.")])
        }
        let position = Self.position(&members, errors: errors)
        var target: UUID?
        let (_, rules) = try change(
            request, principal, action: .update,
            checkVersion: { _, current in
                try ETag.check(request, current: try Self.find(request, in: current).version)
            }
        ) { current in
            let rule = try Self.find(request, in: current)
            target = rule.id
            var merged = (rule.definition.json.objectMembers ?? []).filter { member in !members.contains { $0.key == member.key } }
            merged.insert(JSONMember(key: "apps", value: .array(rule.definition.apps.map(JSONValue.uuid))), at: 0)
            merged.removeAll { $0.key == "apps" && members.contains { $0.key == "apps" } }
            merged += members.filter { $0.value != .null }
            let input = RuleDefinition(.object(merged), at: "", errors: errors, allowIdentity: false)
            try errors.check()
            var list = current.filter { $0.id != rule.id }.map { ($0.id, $0.definition, "") }
            list.insert((rule.id, input, ""), at: min(position ?? rule.position, list.count))
            return list
        }
        let rule = rules.first { $0.id == target }!
        return .resource(rule.json, version: rule.version)
    }

    func delete(_ request: Request, _ principal: Principal) throws -> Response {
        _ = try change(
            request, principal, action: .delete,
            checkVersion: { _, current in
                try ETag.check(request, current: try Self.find(request, in: current).version)
            }
        ) { current in
            let rule = try Self.find(request, in: current)
            return current.filter { $0.id != rule.id }.map { ($0.id, $0.definition, "") }
        }
        return .empty()
    }

    /// `POST {"rules": [...]}` (or `{}` for the stored list): the association files the list would generate
    /// and their lint report. Saves nothing.
    func preview(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let elements = body.array("rules", maxCount: 10_000)
        body.finish()
        let inputs = elements?.map { RuleDefinition($0.value, at: $0.pointer, errors: errors, allowIdentity: true) }
        try errors.check()
        let (outcome, moved, corpus) = try pool.withConnection { connection -> (RuleValidator.Outcome, [JSONValue], JSONValue) in
            let domain = try Domain.find(request.pathParameter(.host), principal, on: connection)
            let proposed =
                try inputs.map { inputs in zip(inputs, elements!).map { ($0.id ?? UUID(), $0, $1.pointer) } }
                ?? RuleStore.all(domain: domain.id, on: connection).map { ($0.id, $0.definition, "/rules/\($0.position)") }
            let outcome = try RuleValidator.validate(
                proposed, domain: domain, on: connection, counter: changes.reloader.catalog.compilations)
            // The URLs the list would move, against what the domain serves now (as the diff of the versions would say
            // once it is saved).
            let after = CatalogEntry(
                domain: domain, rules: CompiledRules(outcome.compiled, linkApps: outcome.linkApps),
                ruleIDs: proposed.map(\.0), links: outcome.links, lastModified: domain.updatedAt)
            let current = changes.reloader.catalog.entry(exactly: domain.hostname)
            let moves = try AssociationMoves(domain: domain, entries: [current, after].compactMap { $0 }, on: connection)
            return (outcome, current.map { moves.moved(from: $0, to: after) } ?? [], moves.json)
        }
        return .json(
            JSONValue.object([
                "aasa": outcome.compiled.aasa.json,
                "assetlinks": outcome.compiled.assetLinks,
                "size": .integer(outcome.compiled.aasaBytes.count),
                "lint": .array(outcome.findings.map(\.json)),
                "moved": .array(moved),
                "corpus": corpus,
            ]).serializedBytes)
    }

    /// Loads the domain and its rules under a row lock, applies `makeList`, validates, saves, audits, notifies.
    private func change(
        _ request: Request, _ principal: Principal, action: AuditStore.Action,
        checkVersion: (Domain, [StoredRule]) throws -> Void = { _, _ in },
        _ makeList: ([StoredRule]) throws -> [(UUID, RuleDefinition, String)]
    ) throws -> (Domain, [StoredRule]) {
        try changes.commit { connection, changed in
            let domain = try Domain.find(request.pathParameter(.host), principal, on: connection, forUpdate: true, keepingKey: true)
            // Before the workspace's apps are read: a change of an app the domain uses, which records its versions
            // under this lock, is then either seen by this validation or sees this change.
            try AssociationVersionRecorder.serialise([domain.hostname], on: connection)
            let current = try RuleStore.all(domain: domain.id, on: connection)
            try checkVersion(domain, current)
            let proposed = try makeList(current).map { (id: $0.0, definition: $0.1, pointer: $0.2) }
            let outcome = try RuleValidator.validate(
                proposed, domain: domain, on: connection, counter: changes.reloader.catalog.compilations)
            try RuleStore.replaceAll(domain: domain, current: current, with: proposed.map { ($0.id, $0.definition) }, on: connection)
            let updated = try DomainStore.update(domain.id, on: connection) // the list's version is the domain's
            let rules = try RuleStore.all(domain: domain.id, on: connection)
            try AuditStore.record(
                on: connection, principal, action, type: "rules", id: domain.hostname,
                before: .array(current.map(\.json)), after: .array(rules.map(\.json)))
            // This node installs the validated compilation (`CatalogChanges.commit`).
            try changed.domainChanged(domain.hostname, to: outcome.entry(updated, rules: rules), on: connection)
            try changed.event(.rulesChanged, workspace: principal.workspaceID, on: connection) {
                .object([
                    "domain": .string(domain.hostname), "action": .string(action.rawValue), "version": .integer(updated.version),
                    "rules": .array(rules.map(\.json)),
                ])
            }
            return (updated, rules)
        }
    }

    private static func find(_ request: Request, in rules: [StoredRule]) throws -> StoredRule {
        guard let id = UUID(uuidString: request.pathParameter(.id)), let rule = rules.first(where: { $0.id == id }) else {
            throw ServiceError.notFound("The rule")
        }
        return rule
    }

    /// Takes `position` out of a rule body (it is where the rule goes, not part of the rule).
    private static func position(_ members: inout [JSONMember], errors: FieldErrors) -> Int? {
        guard let index = members.firstIndex(where: { $0.key == "position" }) else { return nil }
        let value = members.remove(at: index).value
        guard case .number(let text) = value, let position = Int(text), position >= 0 else {
            errors.add("/position", "position must be a whole number from 0.")
            return nil
        }
        return position
    }
}
