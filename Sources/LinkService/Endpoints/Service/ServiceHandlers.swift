import Foundation
import HTTPServer
import Observability
import Postgres

/// `/healthz`, `/readyz` and `/metrics`: what load balancers, orchestrators and Prometheus call.
///
/// `/readyz` and `/metrics` answer where operators look (the API hostname, an address, `localhost`, any host no
/// link domain governs), never on a link domain: there, as on any path of a link domain, the request is a click
/// (`ClickHandler`), so the internet learns neither the service's health nor its routes and counts from a link.
/// `/healthz` answers everywhere: a load balancer may probe with a link domain's `Host`, and it tells nothing
/// but that the process is up (docs/DEPLOYMENT.md, "Health checks").
struct ServiceHandlers: EndpointGroup {
    let probe: DatabaseProbe
    let hits: HitBatcher
    let catalog: Catalog
    let changes: ChangeFeed
    /// The application's background services, whose health `/readyz` reports.
    let services: ServiceGroup
    let metrics: MetricsRegistry
    let logger: Logger
    /// What a request for `/readyz` or `/metrics` on a link domain is: a click.
    let clicks: ClickHandler
    /// `--api-hostname`: the operational endpoints answer there even when a link domain's wildcard governs it.
    let apiHostname: String?

    private static let operatorOnly =
        "Answered on the API hostname and on any host no link domain governs (an address, `localhost`): on a link domain the path is a link like any other."

    static var schemas: [(name: String, schema: Schema)] { APISchemas.service }

    var endpoints: [Endpoint] {
        [
            Endpoint(.GET, "/healthz", "getHealth", "Liveness: the process is up", tag: "Service", success: .json(200, "Health")) { _ in
                Response.json(Array(#"{"status":"ok"}"#.utf8))
            },
            Endpoint(
                .GET, "/readyz", "getReadiness", "Readiness: the database answers and its migrations are current", tag: "Service",
                description: Self.operatorOnly, success: .json(200, "Readiness"), errors: [503]
            ) { request in
                try forOperators(request) { try readiness() }
            },
            Endpoint(
                .GET, "/metrics", "getMetrics", "Prometheus metrics", tag: "Service", description: Self.operatorOnly,
                success: .content(200, mediaType: "text/plain", schema: Schema.string.described("Prometheus text exposition format 0.0.4."))
            ) { request in
                try forOperators(request) { Response.text(metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8") }
            },
        ]
    }

    /// `answer()` for an operator's request; a request on a link domain's host is a click instead.
    private func forOperators(_ request: Request, _ answer: () throws -> Response) throws -> Response {
        guard let host = request.host, host != apiHostname, catalog.entry(governing: host) != nil else { return try answer() }
        return try clicks.handle(request)
    }

    /// 200 when the database answers, its schema is current and the catalog is loaded; otherwise 503 with
    /// the reason, in `detail` and in `database` (`unreachable`, `not-answering`, `ok`). Answers at once from the
    /// probe's last check (`DatabaseProbe`), never waiting on the database. The catalog's freshness is reported either way:
    /// a node whose listener lost the database keeps serving its last good catalog. A ready answer lists each
    /// background service with whether it is doing its work (`ServiceGroup.health`).
    func readiness() throws -> Response {
        let status: Migrator.Status
        switch probe.outcome() {
        case .answered(let answer):
            status = answer
        case .failed(let error):
            logger.warning("readiness: database unreachable", metadata: ["error": "\(error)"])
            throw unavailable("unreachable", "The database is unreachable; the last good catalog keeps serving.")
        case .stalled(let waited):
            logger.warning("readiness: database not answering", metadata: ["db.waited_ms": "\(Int(waited.inSeconds * 1000))"])
            throw unavailable(
                "not-answering", "The database has not answered for \(Self.seconds(waited)) s; the last good catalog keeps serving.")
        }
        switch status {
        case .current:
            guard catalog.isLoaded else { throw unavailable("ok", "The catalog is still loading.", stale: false) }
            let fresh = changes.isHealthy && catalog.staleSince == nil
            var body = #"{"status":"ready","database":"ok","migrations":"current","catalog":{"domains":\#(catalog.count),"#
            body += fresh ? #""state":"current"},"# : #""state":"stale","staleSince":"\#(staleSince())"},"#
            body += #""spool":"\#(hits.spoolFailure == nil ? "ok" : "unwritable")","#
            body +=
                #""services":["# + services.health.map { #"{"name":"\#($0.name)","healthy":\#($0.isHealthy)}"# }.joined(separator: ",")
                + "]}"
            return Response.json(Array(body.utf8))
        case .pending(let versions):
            throw unavailable(
                "ok", "Database migrations are pending: \(versions.map(String.init).joined(separator: ", ")). Run 'linkd migrate'.",
                stale: false)
        case .invalid(let error):
            throw unavailable("ok", "Database migrations are inconsistent: \(error.description)", stale: false)
        }
    }

    /// A 503 whose `database` member says what the database did, with `catalogStaleSince` when the database is
    /// out of reach.
    private func unavailable(_ database: String, _ detail: String, stale: Bool = true) -> Problem {
        let spoolFailing = hits.spoolFailure != nil
        let spoolDetail = " The hit spool cannot be written: hits held in memory are lost if linkd stops before the database is back."
        var problem = Problem.serviceUnavailable(
            detail: detail + (spoolFailing ? spoolDetail : ""),
            retryAfter: stale ? PostgresError.outageRetryAfter : nil)
        problem.extensions["database"] = database
        problem.extensions["spool"] = spoolFailing ? "unwritable" : "ok"
        if stale { problem.extensions["catalogStaleSince"] = staleSince() }
        return problem
    }

    /// `1.2`: a duration in seconds with one decimal.
    private static func seconds(_ duration: Duration) -> String {
        let tenths = Int((duration.inSeconds * 10).rounded(.down))
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func staleSince() -> String {
        RFC3339.string(catalog.staleSince ?? Date())
    }
}
