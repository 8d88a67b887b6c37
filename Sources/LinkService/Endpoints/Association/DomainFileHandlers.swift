import Foundation
import HTTPServer

/// `GET /v1/domains/{host}/aasa` and `/assetlinks`: the files as served, for dashboards (authenticated,
/// workspace-scoped, from the catalog).
struct DomainFileHandlers: EndpointGroup {
    let catalog: Catalog

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/domains/{host}/aasa", "getDomainAASA", "The domain's apple-app-site-association file as served",
                tag: "Association files", scope: .read,
                conditional: true, success: .json(200, "AASAFile", headers: ["ETag", "Last-Modified", "Cache-Control"])
            ) { try serve(.aasa, $0, $1) },
            Endpoint(
                .GET, "/v1/domains/{host}/assetlinks", "getDomainAssetLinks", "The domain's assetlinks.json as served",
                tag: "Association files", scope: .read,
                conditional: true, success: .json(200, "AssetLinks", headers: ["ETag", "Last-Modified", "Cache-Control"])
            ) { try serve(.assetLinks, $0, $1) },
        ]
    }

    func serve(_ file: AssociationFile, _ request: Request, _ principal: Principal) throws -> Response {
        let host = request.pathParameter(.host).lowercased()
        guard let entry = catalog.entry(exactly: host), entry.workspaceID == principal.workspaceID else {
            throw ServiceError.notFound("The domain '\(host)'")
        }
        return AssociationHandlers.conditional(file == .aasa ? entry.aasa : entry.assetLinks, request, cacheControl: "no-store")
    }
}
