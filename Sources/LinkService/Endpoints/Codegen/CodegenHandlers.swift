import ByteText
import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `GET /v1/apps/{id}/codegen/{swift|kotlin|typescript}`: a generated router for the app, one source file
/// (docs/CODEGEN.md); `…/codegen/{swift-glue|kotlin-glue}`: the platform glue that hands the router's inbox the
/// links iOS or Android opens the app with; `GET /v1/apps/{id}/codegen/fixtures`: URLs and the destinations resolve answers for them,
/// for an app's CI to run its router over. Both come from the catalog resolve decides with.
struct CodegenHandlers: EndpointGroup {
    let pool: ConnectionPool
    let resolver: Resolver

    private static let package = QueryParameter(
        "package", Schema.string(maxLength: 255),
        "The package of the Kotlin files (`kotlin`, `kotlin-glue`), e.g. `com.example.app`; by default an Android app's package name, none for an iOS app's."
    )

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/apps/{id}/codegen/{language}", "generateRouter", "Generate the app's router, or its fixtures",
                tag: "Destinations",
                scope: .read,
                description:
                    "`language` is `swift`, `kotlin` or `typescript`: one self-contained source file with the app's destinations as a type, a decoder of resolve's JSON, `LinkRouter.route` (universal links of every domain whose rules name the app, and its custom scheme: the authority of `widgets://widget/42` is the first path segment), the builder, `LinkInbox` (every arriving link held until the app is ready and, for destinations that require sign-in, a user is signed in; thread-safe) and `LinkDeferredClaim` (the click token of a landing page claimed once per install through `POST /v1/deferred/claim`) (docs/CODEGEN.md). `swift-glue` and `kotlin-glue`: the platform glue that goes with the Swift or Kotlin router (SwiftUI, UIKit scenes and notification responses; an observer any Android activity attaches, and the Play Install Referrer), a second file. The Kotlin files are in the package `package` names (by default an Android app's package name). `fixtures`: URLs with the destination resolve answers for each (null: the app opens nothing), for an app's CI. The ETag changes with the app's rules and destinations; 404 for another `language`.",
                query: [Self.package], conditional: true,
                success: .alternatives(
                    200,
                    [
                        (
                            mediaType: "text/plain",
                            schema: Schema.string.described("The generated source file; its header names the rules' ETag.")
                        ),
                        (mediaType: "application/json", schema: Schema.ref("RouterFixtures")),
                    ]), generate)
        ]
    }

    func generate(_ request: Request, _ principal: Principal) throws -> Response {
        let what = request.pathParameter(.language)
        guard let language = CodegenLanguage(rawValue: what) else {
            throw ServiceError.notFound("The code generator '\(what.prefix(40))' (use \(CodegenLanguage.listed))")
        }
        let given = try Self.package.value(in: request)
        let (table, app) = try self.table(request.pathParameter(.id), principal)
        var kotlinPackage = app.packageName.flatMap { try? AndroidPackageName($0) }
        if let given {
            do { kotlinPackage = try AndroidPackageName(given) } catch { throw ServiceError.badRequest("package: \(error.message).") }
        }
        let etag = ETag.strong(of: Array(RouterSource.canonicalTable(table).utf8))
        if let glue = language.glue, let text = RouterSource.glue(table, etag: etag, language: glue, kotlinPackage: kotlinPackage) {
            let body = Array(text.utf8)
            return GeneratedFile.response(
                request, etag: ETag.strong(of: body), contentType: "text/plain; charset=utf-8", body: body,
                fileName: language.fileName)
        }
        guard let router = language.router else {
            let body = fixtures(table, app: app, etag: etag, workspace: principal.workspaceID)
            return GeneratedFile.response(request, etag: ETag.strong(of: body), contentType: "application/json", body: body)
        }
        let body = Array(RouterSource.source(table, etag: etag, language: router, kotlinPackage: kotlinPackage).utf8)
        return GeneratedFile.response(
            request, etag: ETag.strong(of: body), contentType: "text/plain; charset=utf-8", body: body, fileName: router.fileName)
    }

    /// The app's router table: its destinations, the catalog's compiled domains whose rules name it (oldest
    /// first), and the exact domains that shadow its wildcards. Its custom scheme resolves on the domain that decides
    /// for the app (`primaryDomain`, else the oldest: `Catalog.owner(ofApp:)`), as resolve does. The slugs of the
    /// domains' targeted links go with them.
    private func table(_ id: String?, _ principal: Principal) throws -> (RouterTable, App) {
        let (app, destinations, hostnames) = try pool.withConnection { connection in
            let app = try AppHandlers.find(id, principal, on: connection)
            let destinations = try DestinationStore.all(of: app.id, on: connection)
            let hostnames = try AppStore.hostnames(namedByRulesOf: app.id, on: connection)
            return (app, destinations, hostnames)
        }
        let own = hostnames.compactMap { resolver.catalog.entry(exactly: $0) }
        // Pasteboard claim links are an iOS landing page's (docs/LANDING.md).
        let claimDomains =
            app.platform == .ios ? own.filter { $0.settings.deferredClipboard && !$0.hostname.hasPrefix("*.") }.map(\.hostname) : []
        let wildcards = own.map(\.hostname).filter { $0.hasPrefix("*.") }.map { $0.dropFirst(1) }
        let shadowing = resolver.catalog.entries(workspace: principal.workspaceID).filter { entry in
            !hostnames.contains(entry.hostname) && wildcards.contains { entry.hostname.hasSuffix($0) || "." + entry.hostname == $0 }
        }.sorted { $0.hostname < $1.hostname }
        let domains = (own + shadowing).map { RouterTable.Domain(hostname: $0.hostname, compiled: $0.compiled) }
        // Targeted links are answered by resolve alone: the router lists their slugs (docs/CODEGEN.md, "Targeted links").
        let targeted = try pool.withConnection { try LinkStore.targetedSlugs(hostnames: domains.map(\.hostname), on: $0) }
        let table = RouterTable(
            appID: app.id.canonicalText, platform: app.platform == .android ? .android : .ios, scheme: app.customScheme,
            destinations: destinations.map(\.type), domains: domains,
            schemeDomain: resolver.catalog.owner(ofApp: app.id).flatMap { owner in own.firstIndex { $0.hostname == owner.entry.hostname } }
                ?? (own.isEmpty ? nil : 0),
            claimDomains: claimDomains, targetedLinks: targeted
        )
        return (table, app)
    }

    /// `{"app", "etag", "fixtures": [{"url", "outcome", "destination", "needsResolve"?}], "builds": [...]}`:
    /// `destination` is what the app's router must answer (null: it opens nothing there), `needsResolve` (true) that
    /// the URL is a targeted link the router must hand to resolve (`decide`: needs resolve; `route`: null); `builds` what its `build` must answer
    /// (`RouterFixtures.buildDestinations`). A custom-scheme URL is resolved as it is, for the app's platform: the app
    /// of that platform that registered the scheme decides, by its rules on its deciding domain.
    private func fixtures(_ table: RouterTable, app: App, etag: String, workspace: UUID) -> [UInt8] {
        var out = Array("{\"app\":".utf8)
        JSONString.append(table.appID, to: &out)
        out.append(literal: ",\"etag\":")
        JSONString.append(etag, to: &out)
        out.append(literal: ",\"fixtures\":[")
        let platform: AppPlatform = table.platform
        // Each targeted link, at its domain and, on the scheme's domain, in the scheme.
        var targetedURLs: [String] = []
        for (index, domain) in table.domains.enumerated() {
            for slug in table.targetedLinks[domain.hostname] ?? [] {
                targetedURLs.append("https://\(domain.hostname)/\(slug)")
                if index == table.schemeDomain, let scheme = table.scheme { targetedURLs.append("\(scheme)://\(slug)") }
            }
        }
        for (index, url) in (RouterFixtures.urls(table) + targetedURLs).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(literal: "{\"url\":")
            JSONString.append(url, to: &out)
            let answer = try? resolver.answer(url, platform: platform, workspace: workspace)
            out.append(literal: ",\"outcome\":")
            JSONString.append(answer.map { $0.outcome.rawValue } ?? "invalid_url", to: &out)
            out.append(literal: ",\"destination\":")
            if let answer, answer.storedLink?.targeting != nil, answer.resolution?.app?.id == table.appID {
                out.append(literal: "null,\"needsResolve\":true")
            } else if let resolution = answer?.resolution, resolution.outcome == .openApp, resolution.app?.id == table.appID,
                let destination = resolution.destination
            {
                DestinationJSON.write(destination, into: &out)
            } else {
                out.append(literal: "null")
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(literal: "],\"builds\":[")
        for (index, destination) in RouterFixtures.buildDestinations(table).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += build(destination, app: app).serializedBytes
        }
        out.append(literal: "]}")
        return out
    }

    /// `{"destination", "universal", "scheme"?}` or `{"destination", "error": {"param"?, "detail"}}`: what
    /// `POST /v1/links/build` answers for the destination (`LinkBuildHandlers`), on the app's deciding domain.
    private func build(_ destination: JSONValue, app: App) -> JSONValue {
        var members = [JSONMember(key: "destination", value: destination)]
        func refused(_ param: String?, _ detail: String) -> JSONValue {
            var error = param.map { [JSONMember(key: "param", value: .string($0))] } ?? []
            error.append(JSONMember(key: "detail", value: .string(detail)))
            return .object(members + [JSONMember(key: "error", value: .object(error))])
        }
        let type = destination["type"]?.stringValue ?? ""
        guard let owner = resolver.catalog.owner(ofApp: app.id), let declared = owner.app.destinations[type] else {
            return refused(nil, "The app has no destination type '\(type)'.")
        }
        guard case .object(let params)? = destination["params"] else { return refused(nil, "The destination has no parameters.") }
        let checked = declared.values(params)
        if let problem = checked.problems.first {
            return refused(String(problem.pointer.dropFirst()), problem.detail)
        }
        let entry = owner.entry
        switch LinkBuilder(domain: entry.compiled, host: Hostname.servingHost(of: entry.hostname)).build(
            type, checked.values, for: owner.app)
        {
        case .success(let link):
            members.append(JSONMember(key: "universal", value: .string(link.url.text)))
            if let scheme = owner.app.customScheme {
                members.append(JSONMember(key: "scheme", value: .string(link.custom(scheme: scheme))))
            }
            return .object(members)
        case .failure(let failure):
            return refused(nil, failure.detail)
        }
    }
}
