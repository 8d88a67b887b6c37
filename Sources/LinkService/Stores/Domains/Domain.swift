import Foundation
import LinkKit
import Postgres

/// A link domain row: hostname and association settings.
struct Domain: VersionedResource {
    static let auditType = "domain"

    let id: UUID
    let workspaceID: UUID
    let hostname: String
    let settings: DomainSettingsRecord
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    let sortMicros: Int64

    var json: JSONValue {
        var members: [JSONMember] = [JSONMember(key: "hostname", value: .string(hostname))]
        if case .object(let settingsMembers) = settings.json { members += settingsMembers }
        members += [
            JSONMember(
                key: "aasaUrl", value: .string("https://\(Hostname.servingHost(of: hostname))/.well-known/apple-app-site-association")),
            JSONMember(key: "createdAt", value: .timestamp(createdAt)),
            JSONMember(key: "updatedAt", value: .timestamp(updatedAt)),
        ]
        return JSONValue.object(members).compacted
    }

    var auditID: String { hostname }

    /// The domain `hostname` of the caller's workspace; 404 for anything else.
    /// - Parameter keepingKey: with `forUpdate`, lock `FOR NO KEY UPDATE` (a rules change, which writes rows that refer
    ///   to the domain and its apps: versions recorded beside it by an app's change refer to the domain too).
    static func find(
        _ hostname: String?, _ principal: Principal, on connection: Connection, forUpdate: Bool = false,
        keepingKey: Bool = false
    ) throws -> Domain {
        // Accept the hostname as people write it (case, trailing dot, Unicode): the same normalisation as on create.
        let host = (try? Hostname(hostname ?? "").rawValue) ?? (hostname ?? "").lowercased()
        guard
            let domain = try DomainStore.find(host, of: principal.workspaceID, forUpdate: forUpdate, keepingKey: keepingKey, on: connection)
        else {
            throw ServiceError.notFound("The domain '\(host)'")
        }
        return domain
    }
}
