import Foundation
import LinkKit
import Postgres

/// The SQL of `domains` (and of the fetch log a domain shows) and the decoding of its rows.
enum DomainStore: ResourceStore {
    typealias Resource = Domain
    static let table = "domains"
    static let columns = "id, workspace_id, hostname, settings, version, created_at, updated_at, (extract(epoch FROM created_at) * 1000000)::int8"
    static let address = (key: "hostname", owner: "workspace_id")

    static func insert(_ hostname: String, settings: DomainSettingsInput, workspace: UUID, on connection: Connection) throws -> Domain {
        try insert("workspace_id, hostname, settings", [workspace, hostname, JSONB(settings.json.serialized)], on: connection)
    }

    /// Saves new settings as the domain's next version.
    static func save(_ id: UUID, settings: DomainSettingsInput, on connection: Connection) throws -> Domain {
        try update(id, set: "settings = $2", [JSONB(settings.json.serialized)], on: connection)
    }

    /// The last fetch of each of the domain's association files, by file name.
    static func lastFetches(_ hostname: String, on connection: Connection) throws -> [JSONMember] {
        try connection.query("""
            SELECT file, fetched_at, user_agent, etag, status FROM association_fetches
            WHERE hostname = \(hostname) ORDER BY file
            """).map { row in
            JSONMember(key: try row.decode(0, as: String.self), value: JSONValue.object([
                "at": .timestamp(try row.decode(1, as: Date.self)),
                "userAgent": .string(try row.decode(2, as: String.self)),
                "etag": .optional(try row.decode(3, as: String?.self)),
                "status": .integer(try row.decode(4, as: Int.self)),
            ]).compacted)
        }
    }
}

extension Domain {
    init(row: Row) throws {
        let settings: JSONB
        (id, workspaceID, hostname, settings, version, createdAt, updatedAt, sortMicros) =
            try row.decode((UUID, UUID, String, JSONB, Int, Date, Date, Int64).self)
        self.settings = DomainSettingsInput(stored: (try? JSONValue.parse(settings.json)) ?? .object([]))
    }
}
