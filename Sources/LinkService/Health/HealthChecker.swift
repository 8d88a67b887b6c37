import Foundation
import LinkKit
import Observability
import Outbound
import Postgres

/// Runs the association health checks of one domain (docs/HEALTH.md, "Checks"): the origin's own files as the
/// internet fetches them, Apple's CDN copy of the AASA file and Google's Digital Asset Links view of each Android
/// app, each compared with the file linkd serves now (the catalog's entry) and with the domain's kept versions.
/// The requests go out together, through `HTTPClient`, allowed only to the configured bases and this domain's
/// `/.well-known/` files; no database connection is held while they wait. The results are saved with
/// `AssociationCheckStore.save`, which answers the state changes.
struct HealthChecker: Sendable {
    private(set) var pool: ConnectionPool
    let catalog: Catalog
    let client: HTTPClient
    let outbound: OutboundConfiguration
    let logger: Logger
    /// Rung after COMMIT when state changes were saved (their `domain.health.changed` event is queued: this node's
    /// webhook delivery is woken).
    let outbox: WebhookOutboxBell
    /// The bound on requests in flight, shared by every copy of this checker (`using(_:)`).
    var fanOut = OutboundFanOut()

    /// Apple's limit on the AASA file (TN3155): a larger file is not read.
    static let appleSizeLimit = 128 * 1024
    /// The relation every check asks Google about.
    static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    /// Moved URLs listed in a result at most (`movedCount` says how many there were).
    static let movedListLimit = 1_000

    enum CheckError: Error {
        /// The domain's entry is not in this node's catalog (it is still loading).
        case notLoaded
    }

    /// The same checker over another pool (the request handlers' bounded one).
    func using(_ pool: ConnectionPool) -> HealthChecker {
        var checker = self
        checker.pool = pool
        return checker
    }

    /// Runs the three checks of `domain` and saves them; answers the transitions saved.
    /// - Throws: `CheckError.notLoaded`, a database error.
    @discardableResult
    func check(_ domain: Domain) throws -> [CheckTransition] {
        guard let entry = catalog.entry(exactly: domain.hostname) else { throw CheckError.notLoaded }
        let host = Hostname.servingHost(of: domain.hostname)
        let versions = try pool.withConnection { try AssociationVersionStore.all(domain: domain.id, on: $0) }
        let androidApps = entry.compiled.apps.filter { $0.platform == .android }
        var requests = [
            OutboundRequest(url: "https://\(host)/.well-known/apple-app-site-association", headers: [("Accept", "application/json")]),
            OutboundRequest(url: "https://\(host)/.well-known/assetlinks.json", headers: [("Accept", "application/json")]),
            OutboundRequest(url: outbound.appleCDNBase.url.text + host, headers: [("Accept", "application/json")]),
        ]
        if !androidApps.isEmpty {
            requests.append(OutboundRequest(url: Self.googleURL(base: outbound.googleDALBase, host: host)))
        }
        let outcomes = FetchOutcome.all(
            requests, client: client, targets: OutboundTargets(outbound, linkHosts: [host]), linkHost: host,
            fanOut: fanOut)
        var results = [originResult(aasa: outcomes[0], assetLinks: outcomes[1], entry: entry, versions: versions)]
        results.append(try appleResult(outcomes[2], domain: domain, entry: entry, versions: versions))
        if outcomes.count > 3 {
            results += try googleResults(outcomes[3], apps: androidApps, domain: domain, entry: entry, versions: versions)
        }
        let time = Date()
        let transitions = try pool.withTransaction { connection in
            let transitions = try AssociationCheckStore.save(
                results, kinds: Set(CheckKind.allCases), domain: domain.id, at: time, on: connection)
            // Told to the workspace's subscribers with the states saved: both or neither.
            if !transitions.isEmpty {
                try WebhookStore.enqueue(
                    [
                        WebhookEvent(
                            .healthChanged, workspace: domain.workspaceID,
                            data: .object([
                                "domain": .string(domain.hostname), "changes": .array(transitions.map(\.json)),
                            ]), time: time)
                    ], on: connection)
            }
            return transitions
        }
        for transition in transitions {
            logger.info(
                "association check changed state",
                metadata: [
                    "domain": domain.hostname, "check": transition.kind.rawValue, "app": transition.subject,
                    "from": transition.from?.rawValue ?? "none", "to": transition.to?.rawValue ?? "none",
                ])
        }
        if !transitions.isEmpty { outbox.ring() }
        return transitions
    }

    /// `<base>?source.web.site=https://<host>&relation=…&return_relation_extensions=true`.
    static func googleURL(base: OutboundBase, host: String) -> String {
        base.url.text + "?source.web.site=https://\(host)&relation=\(handleAllURLs)&return_relation_extensions=true"
    }

    /// The failure of `outcome` as `{kind, message}` (a name that did not resolve with its `cause` and `nextStep`);
    /// nil when it was answered.
    static func failureReason(_ outcome: FetchOutcome) -> JSONValue? {
        outcome.failureReason
    }

    /// A failing result: the check could not run, and says why.
    static func failing(_ kind: CheckKind, subject: String = "", url: String, reason: JSONValue) -> CheckResult {
        CheckResult(
            kind, subject: subject, .failing,
            .object([JSONMember(key: "url", value: .string(url)), JSONMember(key: "reason", value: reason)]))
    }

    /// `value` with every object's members in key order, so documents compare equal whatever order a server wrote
    /// members in (Google's API answers its own order).
    static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.map { JSONMember(key: $0.key, value: canonical($0.value)) }.sorted { $0.key < $1.key })
        case .array(let items):
            .array(items.map(canonical))
        default:
            value
        }
    }
}
