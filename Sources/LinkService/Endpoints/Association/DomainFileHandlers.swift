import Foundation
import HTTPServer

/// `GET /v1/domains/{host}/aasa` and `/assetlinks`: the files as served, for dashboards (authenticated,
/// workspace-scoped, from the catalog).
struct DomainFileHandlers: Sendable {
    let catalog: Catalog
    let auth: Authenticator

    func register(in routes: inout RouterBuilder) {
        routes.add(.GET, "/v1/domains/{host}/aasa", scope: .read, auth: auth) { try serve(.aasa, $0, $1) }
        routes.add(.GET, "/v1/domains/{host}/assetlinks", scope: .read, auth: auth) { try serve(.assetLinks, $0, $1) }
    }

    func serve(_ file: AssociationFile, _ request: Request, _ principal: Principal) throws -> Response {
        let host = (request.parameters["host"] ?? "").lowercased()
        guard let entry = catalog.entry(exactly: host), entry.workspaceID == principal.workspaceID else {
            throw ServiceError.notFound("The domain '\(host)'")
        }
        return AssociationHandlers.conditional(file == .aasa ? entry.aasa : entry.assetLinks, request, cacheControl: "no-cache")
    }
}
