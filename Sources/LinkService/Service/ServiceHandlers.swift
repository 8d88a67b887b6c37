import Foundation
import HTTPServer
import Observability
import Postgres

/// `/healthz`, `/readyz` and `/metrics`: what load balancers, orchestrators and Prometheus call.
struct ServiceHandlers: Sendable {
    let pool: ConnectionPool
    let migrator: Migrator
    let catalog: Catalog
    let changes: ChangeFeed
    let metrics: MetricsRegistry
    let logger: Logger

    func register(in routes: inout RouterBuilder) {
        routes.get("/healthz") { _ in Response.json(Array(#"{"status":"ok"}"#.utf8)) }
        routes.get("/readyz") { _ in try readiness() }
        routes.get("/metrics") { _ in
            Response.text(metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    /// 200 when the database answers, its schema is current and the catalog is loaded; otherwise 503 with
    /// the reason. The catalog's freshness is reported either way: a node whose listener lost the database
    /// keeps serving its last good catalog.
    func readiness() throws -> Response {
        let status: Migrator.Status
        do {
            status = try migrator.status(using: pool)
        } catch {
            logger.warning("readiness: database unreachable", metadata: ["error": "\(error)"])
            var problem = Problem.serviceUnavailable(detail: "The database is unreachable; the last good catalog keeps serving.")
            problem.extensions["catalogStaleSince"] = staleSince()
            throw problem
        }
        switch status {
        case .current:
            guard catalog.isLoaded else { throw Problem.serviceUnavailable(detail: "The catalog is still loading.") }
            let fresh = changes.isListening && catalog.staleSince == nil
            var body = #"{"status":"ready","database":"ok","migrations":"current","catalog":{"domains":\#(catalog.count),"#
            body += fresh ? #""state":"current"}}"# : #""state":"stale","staleSince":"\#(staleSince())"}}"#
            return Response.json(Array(body.utf8))
        case .pending(let versions):
            throw Problem.serviceUnavailable(detail: "Database migrations are pending: \(versions.map(String.init).joined(separator: ", ")). Run 'linkd migrate'.")
        case .invalid(let error):
            throw Problem.serviceUnavailable(detail: "Database migrations are inconsistent: \(error.description)")
        }
    }

    private func staleSince() -> String {
        (catalog.staleSince ?? Date()).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
