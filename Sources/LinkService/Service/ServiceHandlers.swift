import HTTPServer
import Observability
import Postgres

/// `/healthz`, `/readyz` and `/metrics`: what load balancers, orchestrators and Prometheus call.
struct ServiceHandlers: Sendable {
    let pool: ConnectionPool
    let migrator: Migrator
    let metrics: MetricsRegistry
    let logger: Logger

    func register(in routes: inout RouterBuilder) {
        routes.get("/healthz") { _ in Response.json(Array(#"{"status":"ok"}"#.utf8)) }
        routes.get("/readyz") { _ in try readiness() }
        routes.get("/metrics") { _ in
            Response.text(metrics.render(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
    }

    /// 200 when the database answers and its schema is current; otherwise 503 with the reason.
    func readiness() throws -> Response {
        let status: Migrator.Status
        do {
            status = try migrator.status(using: pool)
        } catch {
            logger.warning("readiness: database unreachable", metadata: ["error": "\(error)"])
            throw Problem.serviceUnavailable(detail: "The database is unreachable.")
        }
        switch status {
        case .current:
            return Response.json(Array(#"{"status":"ready","database":"ok","migrations":"current"}"#.utf8))
        case .pending(let versions):
            throw Problem.serviceUnavailable(detail: "Database migrations are pending: \(versions.map(String.init).joined(separator: ", ")). Run 'linkd migrate'.")
        case .invalid(let error):
            throw Problem.serviceUnavailable(detail: "Database migrations are inconsistent: \(error.description)")
        }
    }
}
