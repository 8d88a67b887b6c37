import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/apps/{id}/codegen/android-manifest`: the intent filters of an Android app, written from the rules of
/// every domain that names it (docs/ANDROID.md), read from the catalog.
struct AndroidManifestHandlers: Sendable {
    let pool: ConnectionPool
    let catalog: Catalog
    let auth: Authenticator

    func register(in routes: inout RouterBuilder) {
        routes.add(.GET, "/v1/apps/{id}/codegen/android-manifest", scope: .read, auth: auth, manifest)
    }

    func manifest(_ request: Request, _ principal: Principal) throws -> Response {
        let app = try pool.withConnection { try AppHandlers.find(request.parameters["id"], principal, on: $0) }
        guard app.platform == .android else {
            throw ServiceError.validation([.init(pointer: "/platform", detail: "The app is an iOS app: intent filters are for Android apps.")])
        }
        let id = app.id.canonicalText
        let domains = catalog.entries(workspace: principal.workspaceID).compactMap { entry -> AndroidManifest.Domain? in
            // (The apps the rules name, known without the Android tables, which are made only for the domains kept.)
            guard entry.compiled.appsNamedByRules(.android).contains(where: { $0.id == id }) else { return nil }
            return AndroidManifest.Domain(hostname: entry.hostname, compiled: entry.compiled)
        }
        guard let domainApp = domains.first.flatMap({ domain in domain.compiled.appsNamedByRules(.android).first { $0.id == id } }) else {
            throw ServiceError.conflict("No rule of any domain names the app \(app.packageName ?? id): there are no links to write intent filters for.")
        }
        let manifest = AndroidManifest(app: domainApp, domains: domains)
        // The ETag is that of the filters and findings, which the header comment names too.
        let content = manifest.xml(etag: "")
        let etag = ETag.strong(of: content.utf8)
        var headers: HTTPHeaders = ["ETag": etag, "Cache-Control": "no-cache"]
        if IfNoneMatch.matches(request.headers["If-None-Match"], etag) {
            return Response(status: 304, headers: headers)
        }
        headers.add("Content-Type", "application/xml; charset=utf-8")
        return Response(status: 200, headers: headers, body: Array(manifest.xml(etag: etag).utf8))
    }
}
