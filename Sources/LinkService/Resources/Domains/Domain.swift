import Foundation
import LinkKit
import Postgres

/// A link domain row: hostname and association settings.
struct Domain: Sendable {
    let id: UUID
    let workspaceID: UUID
    let hostname: String
    let settings: DomainSettingsInput
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    let sortMicros: Int64

    static let columns = "id, workspace_id, hostname, settings, version, created_at, updated_at, (extract(epoch FROM created_at) * 1000000)::int8"

    init(row: Row) throws {
        let settings: JSONB
        (id, workspaceID, hostname, settings, version, createdAt, updatedAt, sortMicros) =
            try row.decode((UUID, UUID, String, JSONB, Int, Date, Date, Int64).self)
        self.settings = DomainSettingsInput(stored: (try? JSONValue.parse(settings.json)) ?? .object([]))
    }

    var json: JSONValue {
        var members: [JSONMember] = [JSONMember(key: "hostname", value: .string(hostname))]
        if case .object(let settingsMembers) = settings.json { members += settingsMembers }
        members += [
            JSONMember(key: "aasaUrl", value: .string("https://\(Hostname.servingHost(of: hostname))/.well-known/apple-app-site-association")),
            JSONMember(key: "createdAt", value: .timestamp(createdAt)),
            JSONMember(key: "updatedAt", value: .timestamp(updatedAt)),
        ]
        return JSONValue.object(members).compacted
    }

    var location: String { "/v1/domains/\(hostname)" }

    /// The domain `hostname` of the caller's workspace; 404 for anything else.
    static func find(_ hostname: String?, _ principal: Principal, on connection: Connection, forUpdate: Bool = false) throws -> Domain {
        // Accept the hostname as people write it (case, trailing dot, Unicode): the same normalisation as on create.
        let host = (try? Hostname(hostname ?? "").rawValue) ?? (hostname ?? "").lowercased()
        let row = try connection.query(Query(unsafeSQL: """
            SELECT \(columns) FROM domains WHERE hostname = $1 AND workspace_id = $2 \(forUpdate ? "FOR UPDATE" : "")
            """, binds: [host, principal.workspaceID])).first
        guard let row else { throw ServiceError.notFound("The domain '\(host)'") }
        return try Domain(row: row)
    }
}
