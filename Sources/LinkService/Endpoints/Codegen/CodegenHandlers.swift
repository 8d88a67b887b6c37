import ByteText
import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/apps/{id}/codegen/{swift|kotlin|typescript}`: a generated router for the app, one source file
/// (docs/CODEGEN.md); `GET /v1/apps/{id}/codegen/fixtures`: URLs and the destinations resolve answers for them,
/// for an app's CI to run its router over. Both come from the catalog resolve decides with.
struct CodegenHandlers: Sendable {
    let pool: ConnectionPool
    let auth: Authenticator
    let resolver: Resolver

    func register(in routes: inout RouterBuilder) {
        routes.add(.GET, "/v1/apps/{id}/codegen/{language}", scope: .read, auth: auth, generate)
    }

    func generate(_ request: Request, _ principal: Principal) throws -> Response {
        let what = request.parameters["language"] ?? ""
        let language = RouterLanguage(rawValue: what)
        guard language != nil || what == "fixtures" else {
            throw ServiceError.notFound("The code generator '\(what.prefix(40))' (use swift, kotlin, typescript or fixtures)")
        }
        let (table, app) = try self.table(request.parameters["id"], principal)
        let etag = ETag.strong(of: RouterSource.canonicalTable(table).utf8)
        let body: [UInt8]
        let contentType: String
        if let language {
            body = Array(RouterSource.source(table, etag: etag, language: language).utf8)
            contentType = "text/plain; charset=utf-8"
        } else {
            body = fixtures(table, app: app, etag: etag, workspace: principal.workspaceID)
            contentType = "application/json"
        }
        let tag = ETag.strong(of: body)
        var headers: HTTPHeaders = ["ETag": tag, "Cache-Control": "no-cache"]
        if IfNoneMatch.matches(request.headers["If-None-Match"], tag) {
            return Response(status: 304, headers: headers)
        }
        headers.add("Content-Type", contentType)
        if let language { headers.add("Content-Disposition", "inline; filename=\"\(language.fileName)\"") }
        return Response(status: 200, headers: headers, body: body)
    }

    /// The app's router table: its destinations, the catalog's compiled domains whose rules name it (oldest
    /// first), and the exact domains that shadow its wildcards. Its custom scheme resolves on the domain that decides
    /// for the app (`primaryDomain`, else the oldest: `Catalog.owner(ofApp:)`), as resolve does.
    private func table(_ id: String?, _ principal: Principal) throws -> (RouterTable, App) {
        let (app, destinations, hostnames) = try pool.withConnection { connection in
            let app = try AppHandlers.find(id, principal, on: connection)
            let destinations = try DestinationStore.all(of: app.id, on: connection)
            let hostnames = try AppStore.hostnames(namedByRulesOf: app.id, on: connection)
            return (app, destinations, hostnames)
        }
        let own = hostnames.compactMap { resolver.catalog.entry(exactly: $0) }
        let wildcards = own.map(\.hostname).filter { $0.hasPrefix("*.") }.map { $0.dropFirst(1) }
        let shadowing = resolver.catalog.entries(workspace: principal.workspaceID).filter { entry in
            !hostnames.contains(entry.hostname) && wildcards.contains { entry.hostname.hasSuffix($0) || "." + entry.hostname == $0 }
        }.sorted { $0.hostname < $1.hostname }
        let domains = (own + shadowing).map { RouterTable.Domain(hostname: $0.hostname, compiled: $0.compiled) }
        let table = RouterTable(
            appID: app.id.canonicalText, platform: app.platform == .android ? .android : .ios, scheme: app.customScheme,
            destinations: destinations.map(\.type), domains: domains,
            schemeDomain: resolver.catalog.owner(ofApp: app.id).flatMap { owner in own.firstIndex { $0.hostname == owner.entry.hostname } }
                ?? (own.isEmpty ? nil : 0)
        )
        return (table, app)
    }

    /// `{"app", "etag", "fixtures": [{"url", "outcome", "destination"}]}`: `destination` is what the app's router
    /// must answer (null: it opens nothing there). A custom-scheme URL is answered as the https URL of the same
    /// path on the scheme's domain.
    private func fixtures(_ table: RouterTable, app: App, etag: String, workspace: UUID) -> [UInt8] {
        var out = Array("{\"app\":".utf8)
        JSONString.append(table.appID, to: &out)
        out.append(literal: ",\"etag\":")
        JSONString.append(etag, to: &out)
        out.append(literal: ",\"fixtures\":[")
        let platform: AppPlatform = table.platform
        for (index, url) in RouterFixtures.urls(table).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(literal: "{\"url\":")
            JSONString.append(url, to: &out)
            var asked = url
            if let scheme = table.scheme, let schemeDomain = table.schemeDomain, url.lowercased().hasPrefix(scheme + "://") {
                var rest = url.dropFirst(scheme.count + 3)
                if rest.hasPrefix("/") { rest = rest.dropFirst() }
                let hostname = table.domains[schemeDomain].hostname
                asked = "https://" + (hostname.hasPrefix("*.") ? "m." + hostname.dropFirst(2) : hostname[...]) + "/" + rest
            }
            let answer = try? resolver.answer(asked, platform: platform, workspace: workspace)
            out.append(literal: ",\"outcome\":")
            JSONString.append(answer.map { $0.outcome.rawValue } ?? "invalid_url", to: &out)
            out.append(literal: ",\"destination\":")
            if let resolution = answer?.resolution, resolution.outcome == .openApp, resolution.app?.id == table.appID,
               let destination = resolution.destination {
                ResolveJSON.write(destination, into: &out)
            } else {
                out.append(literal: "null")
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(literal: "]}")
        return out
    }
}
