import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/apps/{id}/codegen/android-manifest`: the intent filters of an Android app, written from the rules of
/// every domain that names it (docs/ANDROID.md), read from the catalog.
struct AndroidManifestHandlers: EndpointGroup {
    let pool: ConnectionPool
    let catalog: Catalog

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/apps/{id}/codegen/android-manifest", "getAndroidManifest",
                "The intent filters an Android app's manifest needs for its link domains", tag: "Apps", scope: .read,
                description: """
                    One `<intent-filter android:autoVerify="true">` per domain whose rules name the app, its paths written as \
                    `path`, `pathPrefix`, `pathPattern` or `pathAdvancedPattern` so Android claims what the rules claim. XML \
                    comments name each rule and say where Android decides differently (exclusions, query and fragment \
                    constraints, patterns Android cannot express exactly). An app with a `customScheme` also gets a filter for \
                    its scheme (`VIEW`, `DEFAULT`, `BROWSABLE`, not verified). The ETag changes with the content. \
                    422 for an iOS app, 409 when no rule names the app.
                    """,
                conditional: true, success: .content(200, mediaType: "application/xml", schema: .string), errors: [409, 422], manifest)
        ]
    }

    func manifest(_ request: Request, _ principal: Principal) throws -> Response {
        let app = try pool.withConnection { try AppHandlers.find(request.pathParameter(.id), principal, on: $0) }
        guard app.platform == .android else {
            throw ServiceError.validation([
                .init(pointer: "/platform", detail: "The app is an iOS app: intent filters are for Android apps.")
            ])
        }
        let id = app.id.canonicalText
        let domains = catalog.entries(workspace: principal.workspaceID).compactMap { entry -> AndroidManifest.Domain? in
            // (The apps the rules name, known without the Android tables, which are made only for the domains kept.)
            guard entry.compiled.appsNamedByRules(.android).contains(where: { $0.id == id }) else { return nil }
            return AndroidManifest.Domain(hostname: entry.hostname, compiled: entry.compiled)
        }
        guard let domainApp = domains.first.flatMap({ domain in domain.compiled.appsNamedByRules(.android).first { $0.id == id } }) else {
            throw ServiceError.conflict(
                "No rule of any domain names the app \(app.packageName ?? id): there are no links to write intent filters for.")
        }
        let manifest = AndroidManifest(app: domainApp, domains: domains)
        // The ETag is that of the filters and findings, which the header comment names too.
        let etag = ETag.strong(of: Array(manifest.xml(etag: "").utf8))
        return GeneratedFile.response(
            request, etag: etag, contentType: "application/xml; charset=utf-8", body: Array(manifest.xml(etag: etag).utf8))
    }
}
