import ByteText
import Foundation
import HTTPServer
import LinkKit

/// `GET /v1/resolve?url=…` and `POST /v1/resolve {"urls": [...]}`: what a URL opens, why, and where.
struct ResolveHandlers: EndpointGroup {
    /// The most URLs one `POST` may resolve.
    static let batchLimit = 1000

    let resolver: Resolver
    let auth: Authenticator
    let hits: any HitSink
    let agents: UserAgentCache
    /// Resolve without a key (the operator's choice): then only the URL's host decides the workspace.
    let isPublic: Bool

    private static let publicResolveNote =
        "A server started with public resolve also answers without a key; the URL's host then decides the workspace."

    private static let url = QueryParameter(
        "url", Schema.linkURL.with("maxLength", .integer(2000)),
        "The absolute http(s) link. The whole request target is limited to 8 KiB (414): longer links go to `POST /v1/resolve`.",
        required: true)
    private static let platform = QueryParameter("platform", .enumeration(["ios", "android"]), "Whose apps answer (default ios).")
    /// Read with `Request.flag`, which also takes upper-case spellings.
    private static let log = QueryParameter(
        "log", Schema.enumeration(["true", "false", "1", "0"]), "Record the lookup as a hit for analytics (default true).")

    static var schemas: [(name: String, schema: Schema)] { APISchemas.resolve }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/resolve", "resolveURL", "What a URL opens: app, rule and typed destination", tag: "Resolve", access: .key(.read),
                description: Self.publicResolveNote,
                query: [Self.url, Self.platform, Self.log] + ResolveVisitorContext.queryParameters,
                success: .json(200, "ResolveResult")
            ) { request in try resolveOne(request) },
            Endpoint(
                .POST, "/v1/resolve", "resolveURLs", "Resolve up to 1000 URLs at once", tag: "Resolve", access: .key(.read),
                description: Self.publicResolveNote + " A URL that is not an absolute http(s) URL is a 422 pointing at it.",
                body: "ResolveBatchRequest", success: .json(200, "ResolveBatch")
            ) { request in try resolveMany(request) },
        ]
    }

    private func workspace(_ request: Request) throws -> UUID? {
        if isPublic, request.headers["Authorization"] == nil { return nil }
        return try auth.authenticate(request, requiring: .read).workspaceID
    }

    func resolveOne(_ request: Request) throws -> Response {
        let workspace = try workspace(request)
        let url = try Self.url.value(in: request)!
        let platform = try Self.platform.value(in: request).flatMap(AppPlatform.init(rawValue:)) ?? .ios
        let log = try request.flag(Self.log.name) ?? true
        var resolved: ResolveCache.CachedAnswer
        do {
            resolved = try resolver.resolve(url, platform: platform, workspace: workspace)
        } catch let error as LinkKitError {
            throw ServiceError.badRequest("url is not a valid absolute http(s) URL: \(error.message)")
        }
        let context = try ResolveVisitorContext(query: request)
        resolved = targeted(resolved, context, platform: platform, request: request)
        if log { record(resolved.answer, request, workspace: workspace) }
        return .json(resolved.json)
    }

    func resolveMany(_ request: Request) throws -> Response {
        let workspace = try workspace(request)
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        let urls = body.strings("urls", required: true, maxCount: Self.batchLimit, limit: .resolveURL) ?? []
        let platformName = body.string("platform")
        let log = body.bool("log") ?? true
        let context = ResolveVisitorContext(body: &body)
        body.finish()
        let platform: AppPlatform
        do { platform = try Self.platform(platformName) } catch {
            errors.add("/platform", "platform must be 'ios' or 'android'."); platform = .ios
        }
        var answers: [ResolveCache.CachedAnswer] = []
        answers.reserveCapacity(urls.count)
        for (index, url) in urls.enumerated() {
            do {
                let resolved = try resolver.resolve(url, platform: platform, workspace: workspace)
                answers.append(targeted(resolved, context, platform: platform, request: request))
            } catch let error as LinkKitError {
                errors.add("/urls/\(index)", "Not a valid absolute http(s) URL: \(error.message)")
            }
        }
        try errors.check()
        if log { for resolved in answers { record(resolved.answer, request, workspace: workspace) } }
        var out = Array("{\"results\":[".utf8)
        out.reserveCapacity(answers.reduce(16) { $0 + $1.json.count + 1 })
        for (index, resolved) in answers.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: resolved.json)
        }
        out.append(literal: "]}")
        return .json(out)
    }

    /// `resolved` as the visitor of `context` gets it, when its stored link is targeted; otherwise as it is.
    private func targeted(
        _ resolved: ResolveCache.CachedAnswer, _ context: ResolveVisitorContext, platform: AppPlatform, request: Request
    ) -> ResolveCache.CachedAnswer {
        guard let targeting = resolved.answer.storedLink?.targeting else { return resolved }
        let visitor = context.visitor(
            for: targeting, platform: platform, request: request, countries: hits.countries, query: resolved.answer.parsed.query)
        return resolver.targeted(resolved, slot: targeting.slot(targeting.choose(visitor, key: context.visitorID.map { $0[...] })))
    }

    private func record(_ answer: Resolver.Answer, _ request: Request, workspace: UUID?) {
        hits.record(
            Hit(
                resolved: answer, source: .resolve, request: request, agent: agents.classify(request),
                workspace: workspace ?? answer.entry?.workspaceID), from: request)
    }

    static func platform(_ text: String?) throws -> AppPlatform {
        switch text {
        case nil, "ios"?: return .ios
        case "android"?: return .android
        default: throw ServiceError.badRequest("platform must be 'ios' or 'android'.")
        }
    }
}
