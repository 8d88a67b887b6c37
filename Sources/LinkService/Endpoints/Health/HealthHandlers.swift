import Foundation
import HTTPServer
import LinkKit
import Postgres
import Synchronization

/// `GET /v1/domains/{host}/health` (the last result of each check) and `POST /v1/domains/{host}/checks` (run them
/// now and answer once they are done): docs/HEALTH.md, "Checks".
struct HealthHandlers: EndpointGroup {
    let pool: ConnectionPool
    let checker: HealthChecker
    let counts: CheckCounts
    /// Checks on demand running on this node, at most `maxOnDemand` at once: each holds an HTTP worker while its
    /// requests wait (up to `--check-timeout`).
    let running = Running()
    let maxOnDemand: Int

    final class Running: Sendable {
        let count = Atomic<Int>(0)
    }

    static var schemas: [(name: String, schema: Schema)] { APISchemas.health }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/domains/{host}/health", "getDomainHealth", "The association health of the domain", tag: "Association files",
                scope: .read,
                description:
                    "The last result of each check: the origin's own files, Apple's CDN copy, and Google's view of each Android app, each with its state (`current` is the only healthy one), since when, when it last ran and what it saw. A check that has not run yet is absent.",
                success: .json(200, "DomainHealth"), health),
            Endpoint(
                .POST, "/v1/domains/{host}/checks", "runDomainChecks", "Check the domain's association health now",
                tag: "Association files",
                scope: .write,
                description:
                    "Runs the three checks now (their requests in parallel, each within `--check-timeout`), saves them and answers the domain's health once they are done, with the state changes this run made (`changes`). 503 when this node already runs as many checks on demand as it allows, or has not loaded the domain yet.",
                success: .json(200, "DomainHealth"), run),
        ]
    }

    func health(_ request: Request, _ principal: Principal) throws -> Response {
        let (domain, checks, due) = try pool.withConnection { connection in
            let domain = try Domain.find(request.pathParameter(.host), principal, on: connection)
            return (
                domain, try AssociationCheckStore.all(domain: domain.id, on: connection),
                try AssociationCheckStore.due(domain: domain.id, on: connection)
            )
        }
        return .json(Self.body(domain, checks: checks, due: due).serializedBytes)
    }

    func run(_ request: Request, _ principal: Principal) throws -> Response {
        let domain = try pool.withConnection { try Domain.find(request.pathParameter(.host), principal, on: $0) }
        guard running.count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue <= maxOnDemand else {
            running.count.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            throw Problem.serviceUnavailable(
                detail: "This node is running as many checks on demand as it allows; try again shortly.", retryAfter: 5)
        }
        defer { running.count.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        let transitions: [CheckTransition]
        do {
            transitions = try checker.check(domain)
        } catch HealthChecker.CheckError.notLoaded {
            throw Problem.serviceUnavailable(detail: "This node has not loaded the domain '\(domain.hostname)' yet.", retryAfter: 1)
        }
        try? counts.refresh(force: true) { try pool.withConnection { try AssociationCheckStore.domainCounts(on: $0) } }
        let (checks, due) = try pool.withConnection { connection in
            (
                try AssociationCheckStore.all(domain: domain.id, on: connection),
                try AssociationCheckStore.due(domain: domain.id, on: connection)
            )
        }
        var body = Self.body(domain, checks: checks, due: due).objectMembers ?? []
        body.append(JSONMember(key: "changes", value: .array(transitions.map(\.json))))
        return .json(JSONValue.object(body).serializedBytes)
    }

    /// `{hostname, healthy, checks, nextCheckAt}`: healthy when every check has run and is `current`.
    static func body(_ domain: Domain, checks: [AssociationCheck], due: Date?) -> JSONValue {
        let ran = Set(checks.map(\.kind))
        let healthy = ran.isSuperset(of: [.origin, .appleCDN]) && checks.allSatisfy { $0.state.isHealthy }
        return .object([
            JSONMember(key: "hostname", value: .string(domain.hostname)),
            JSONMember(key: "healthy", value: .bool(healthy)),
            JSONMember(key: "checks", value: .array(checks.map(\.json))),
            JSONMember(key: "nextCheckAt", value: due.map { .timestamp($0) } ?? .null),
        ])
    }
}
