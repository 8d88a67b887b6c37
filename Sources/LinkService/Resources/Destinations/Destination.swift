import Foundation
import LinkKit
import Postgres

/// A destination type of an app as stored: the typed in-app screen links resolve to.
struct Destination: Sendable {
    let id: UUID
    let appID: UUID
    let name: String
    let title: String?
    let parameters: [ParameterSpec]
    /// Links to it are for signed-in users (docs/CODEGEN.md).
    let requiresSignIn: Bool
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    let sortMicros: Int64

    static let columns = "id, app_id, name, title, params, requires_sign_in, version, created_at, updated_at, (extract(epoch FROM created_at) * 1000000)::int8"

    init(row: Row) throws {
        let params: JSONB
        (id, appID, name, title, params, requiresSignIn, version, createdAt, updatedAt, sortMicros) =
            try row.decode((UUID, UUID, String, String?, JSONB, Bool, Int, Date, Date, Int64).self)
        let errors = FieldErrors()
        parameters = ParameterSpecJSON.read((try? JSONValue.parse(params.json)) ?? .object([]), at: "/params", errors)
    }

    var type: DestinationType { DestinationType(name: name, parameters: parameters, requiresSignIn: requiresSignIn) }

    var json: JSONValue {
        JSONValue.object([
            "name": .string(name),
            "title": .optional(title),
            "params": ParameterSpecJSON.json(parameters),
            "requiresSignIn": .bool(requiresSignIn),
            "createdAt": .timestamp(createdAt),
            "updatedAt": .timestamp(updatedAt),
        ]).compacted
    }

    func location(app: UUID) -> String { "/v1/apps/\(app.canonicalText)/destinations/\(name)" }
}
