import ByteText
import Foundation
import HTTPServer
import LinkKit

/// `POST /v1/links/build`: the URLs that open a typed destination, the inverse of resolve (docs/LINKS.md).
/// One link (`{"app", "destination", "domain"?}`), or up to `batchLimit` (`{"links": [...]}`, answered per item).
/// Built from the catalog, as resolve answers: the writing node's rules, read back on every node.
struct LinkBuildHandlers: EndpointGroup {
    /// The most links one call may build (a push campaign).
    static let batchLimit = 1000

    let catalog: Catalog

    static var schemas: [(name: String, schema: Schema)] { APISchemas.linkBuild }

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .POST, "/v1/links/build", "buildLinks", "The links that open a typed destination: the inverse of resolve", tag: "Links",
                scope: .read,
                description: """
                    One link (`{"app", "destination", "domain"?}`) or up to \(LinkBuildHandlers.batchLimit) (`{"links": [...]}`, \
                    answered in order, a failing item as `{"error": <problem>}`). The first rule in order on the domain (the \
                    app's `primaryDomain`, else the oldest domain whose rules name it) bound to the destination type whose \
                    patterns can print the parameters gives the URL, which resolves back to that rule and destination. \
                    422 with pointers for parameters the destination's schema refuses; 422 naming the reason when no rule \
                    can print them (raw AASA patterns only) or an earlier rule or exclusion would decide the URL (docs/LINKS.md).
                    """,
                body: "LinkBuildRequest", success: .json(200, "LinkBuildAnswer"), build)
        ]
    }

    func build(_ request: Request, _ principal: Principal) throws -> Response {
        let errors = FieldErrors()
        var body = try JSONBody.object(request, errors: errors)
        var builders: [ObjectIdentifier: LinkBuilder] = [:]
        guard body.has("links") else {
            let built = try link(&body, principal, builders: &builders)
            try errors.check()
            return .json(built)
        }
        let items = body.array("links", required: true, maxCount: Self.batchLimit) ?? []
        body.finish()
        try errors.check()
        var out = Array("{\"results\":[".utf8)
        for (index, item) in items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let itemErrors = FieldErrors()
            var reader = JSONObjectReader(item.value, at: item.pointer, errors: itemErrors)
            do {
                out += try link(&reader, principal, builders: &builders)
            } catch let error as ServiceError {
                out.append(literal: "{\"error\":")
                out += error.problem.jsonBytes
                out.append(UInt8(ascii: "}"))
            }
        }
        out.append(literal: "]}")
        return .json(out)
    }

    /// One link's JSON: `{"universal","scheme"?,"domain","rule":{"id","position"}}`.
    /// - Throws: `ServiceError.validation` with pointers under `body`'s.
    private func link(
        _ body: inout JSONObjectReader, _ principal: Principal, builders: inout [ObjectIdentifier: LinkBuilder]
    ) throws -> [UInt8] {
        let errors = body.errors
        let appID = LinkFields.app.read(&body, required: true) // the app as a link names it
        let domainText = body.string("domain", limit: .hostname)
        let destination = DestinationInput(reading: &body, required: true)
        body.finish()
        try errors.check()
        let owner = try self.owner(appID!, domain: domainText, principal, pointer: body)
        let type = destination!.type!
        guard let declared = owner.app.destinations[type] else {
            throw ServiceError.validation([.init(pointer: destination!.typePointer, detail: "The app has no destination type '\(type)'.")])
        }
        let values = destination!.check(against: declared, errors)
        try errors.check()
        let entry = owner.entry
        let builder =
            builders[ObjectIdentifier(entry)]
            ?? LinkBuilder(
                domain: entry.compiled, host: Hostname.servingHost(of: entry.hostname), ruleID: { entry.ruleID(at: $0)?.canonicalText })
        builders[ObjectIdentifier(entry)] = builder
        switch builder.build(type, values, for: owner.app) {
        case .success(let link):
            var out = Array("{\"universal\":".utf8)
            JSONString.append(link.url.text, to: &out)
            if let scheme = owner.app.customScheme {
                out.append(literal: ",\"scheme\":")
                JSONString.append(link.custom(scheme: scheme), to: &out)
            }
            out.append(literal: ",\"domain\":")
            JSONString.append(entry.hostname, to: &out)
            out.append(literal: ",\"rule\":{\"id\":")
            JSONString.append(link.rule.id, to: &out)
            out.append(literal: ",\"position\":")
            out += String(link.position).utf8
            out.append(literal: "}}")
            return out
        case .failure(let failure):
            throw ServiceError.validation([.init(pointer: body.at("destination"), detail: failure.detail)])
        }
    }

    /// The app with the domain its link is built on: `domain` when given (a domain of the workspace whose rules
    /// name the app), else the app's deciding domain (`AppDomains`).
    private func owner(_ appID: UUID, domain: String?, _ principal: Principal, pointer body: JSONObjectReader) throws -> AppDomains.Owner {
        guard let owner = catalog.owner(ofApp: appID), owner.entry.workspaceID == principal.workspaceID else {
            throw ServiceError.validation([
                .init(
                    pointer: body.at("app"),
                    detail: "No link domain of this workspace has rules naming the app \(appID.canonicalText) (or there is no such app).")
            ])
        }
        guard let domain else { return owner }
        let hostname = (try? Hostname(domain))?.rawValue ?? domain
        guard let entry = catalog.entry(exactly: hostname), entry.workspaceID == principal.workspaceID,
            let app = entry.compiled.appsNamedByRules(owner.app.platform).first(where: { $0.id == owner.app.id })
        else {
            throw ServiceError.validation([
                .init(pointer: body.at("domain"), detail: "\(domain) is not a link domain of this workspace whose rules name the app.")
            ])
        }
        return AppDomains.Owner(app: app, entry: entry)
    }
}
