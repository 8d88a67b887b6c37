import Foundation
import HTTPServer
import LinkKit
import Postgres

/// `/v1/domains/{host}/association/versions` and `…/diff`: the numbered versions of a domain's served association
/// files (`AssociationVersionRecorder` keeps them) and what a change between two of them moves (`AssociationMoves`).
struct AssociationVersionHandlers: EndpointGroup {
    let pool: ConnectionPool

    static var schemas: [(name: String, schema: Schema)] { APISchemas.associationVersions }

    static let from = QueryParameter(
        "from", Schema.integer(minimum: 1, maximum: Int(Int32.max)), "The number of the version compared from.", required: true)
    static let to = QueryParameter(
        "to", Schema.integer(minimum: 1, maximum: Int(Int32.max)), "The number of the version compared to.", required: true)

    var endpoints: [Endpoint] {
        [
            Endpoint(
                .GET, "/v1/domains/{host}/association/versions", "listAssociationVersions",
                "List the versions of the domain's association files", tag: "Association files", scope: .read,
                description:
                    "Every change of the served AASA or assetlinks.json bytes, oldest first, numbered from 1 without gaps (the oldest beyond the configured count are forgotten; the current one is always kept). `auditId` names the audit entry of the write that caused it; a version found at start (`cause: found`) has none.",
                success: .page("AssociationVersion"), list),
            Endpoint(
                .GET, "/v1/domains/{host}/association/versions/{n}", "getAssociationVersion",
                "Read a version of the domain's association files", tag: "Association files", scope: .read,
                description:
                    "Both files as served then, with their ETags, and what decided its URLs (the domain's settings, rules and link space).",
                success: .json(200, "AssociationVersionFiles"), get),
            Endpoint(
                .GET, "/v1/domains/{host}/association/diff", "diffAssociationVersions",
                "What changed between two versions, and the URLs whose decision moved", tag: "Association files", scope: .read,
                description:
                    "The JSON difference of both files, and for a corpus of the domain's URLs (its rules' example URLs, the URLs hit most in the last 7 days, its stored links; `corpus.cut` says when a bound left some out) every URL that iOS or Android decides otherwise under `to` than under `from`: outcome, app or destination. Each version is recompiled from what decided it, with the workspace's apps as they are now; `from.recompiled` and `to.recompiled` say whether that gives back the stored files, and `warnings` says so when it does not.",
                query: [Self.from, Self.to], success: .json(200, "AssociationDiff"), diff),
        ]
    }

    func list(_ request: Request, _ principal: Principal) throws -> Response {
        let page = try Page(request)
        let versions = try pool.withConnection { connection in
            let domain = try Domain.find(request.pathParameter(.host), principal, on: connection)
            return try AssociationVersionStore.page(page, domain: domain.id, on: connection)
        }
        return page.response(request, items: versions.map { ($0.json, $0.sortMicros, $0.id) })
    }

    func get(_ request: Request, _ principal: Principal) throws -> Response {
        let version = try pool.withConnection { connection in
            let domain = try Domain.find(request.pathParameter(.host), principal, on: connection)
            return try Self.version(Int(request.pathParameter(.number)), of: domain, on: connection)
        }
        var members = version.version.json.objectMembers ?? []
        members += [
            JSONMember(key: "aasa", value: Self.document(version.aasa)),
            JSONMember(key: "assetlinks", value: Self.document(version.assetLinks)),
            JSONMember(key: "snapshot", value: version.snapshot),
        ]
        return .json(JSONValue.object(members).serializedBytes)
    }

    func diff(_ request: Request, _ principal: Principal) throws -> Response {
        let (fromNumber, toNumber) = (try Self.from.number(in: request), try Self.to.number(in: request))
        let body = try pool.withConnection { connection -> JSONValue in
            let domain = try Domain.find(request.pathParameter(.host), principal, on: connection)
            let old = try Self.version(fromNumber, of: domain, on: connection)
            let new = try Self.version(toNumber, of: domain, on: connection)
            let apps = try DomainLoader.workspaceApps(domain.workspaceID, on: connection).apps
            let before = CatalogLoader.entry(of: old, domain: domain, apps: apps)
            let after = CatalogLoader.entry(of: new, domain: domain, apps: apps)
            let moves = try AssociationMoves(domain: domain, entries: [before, after], on: connection)
            var warnings: [JSONValue] = []
            func side(_ version: AssociationVersionFiles, _ entry: CatalogEntry) -> JSONValue {
                let aasa = entry.aasa.etag == version.version.aasaETag
                let assetLinks = entry.assetLinks.etag == version.version.assetLinksETag
                if !aasa || !assetLinks {
                    let files = [aasa ? nil : "AASA", assetLinks ? nil : "assetlinks.json"].compactMap { $0 }.joined(separator: " and ")
                    warnings.append(
                        .string(
                            """
                            Version \(version.version.number)'s rules, compiled with the workspace's apps as they are now, do not give back its \
                            stored \(files) (an app changed since): its decisions are those of the recompilation.
                            """))
                }
                var members = version.version.json.objectMembers ?? []
                members.append(
                    JSONMember(
                        key: "recompiled",
                        value: .object([
                            JSONMember(key: "aasa", value: .bool(aasa)), JSONMember(key: "assetlinks", value: .bool(assetLinks)),
                        ])))
                return .object(members)
            }
            let from = side(old, before)
            let to = side(new, after)
            return .object([
                JSONMember(key: "from", value: from),
                JSONMember(key: "to", value: to),
                JSONMember(key: "aasa", value: Self.difference(old.aasa, new.aasa)),
                JSONMember(key: "assetlinks", value: Self.difference(old.assetLinks, new.assetLinks)),
                JSONMember(key: "moved", value: .array(moves.moved(from: before, to: after))),
                JSONMember(key: "corpus", value: moves.json),
                JSONMember(key: "warnings", value: .array(warnings)),
            ])
        }
        return .json(body.serializedBytes)
    }

    /// Version `number` of `domain`; 404 when it has none of that number.
    static func version(_ number: Int?, of domain: Domain, on connection: Connection) throws -> AssociationVersionFiles {
        guard let number, number >= 1, number <= Int(Int32.max),
            let version = try AssociationVersionStore.find(domain: domain.id, number: number, on: connection)
        else {
            throw ServiceError.notFound("The version \(number.map(String.init) ?? "?") of the association files of '\(domain.hostname)'")
        }
        return version
    }

    /// A stored file as a JSON document (files linkd wrote are JSON; anything else is shown as text).
    static func document(_ bytes: [UInt8]) -> JSONValue {
        (try? JSONValue.parse(bytes: bytes)) ?? .string(String(decoding: bytes, as: UTF8.self))
    }

    /// `{operations, cut}` from `old` to `new` (`JSONDifference`).
    static func difference(_ old: [UInt8], _ new: [UInt8]) -> JSONValue {
        let (operations, cut) = JSONDifference.operations(from: document(old), to: document(new))
        return .object([JSONMember(key: "operations", value: .array(operations)), JSONMember(key: "cut", value: .bool(cut))])
    }
}
