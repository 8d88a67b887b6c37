import Foundation
import LinkKit
import Postgres

/// A destination type of an app as stored: the typed in-app screen links resolve to.
struct Destination: Sendable {
    let id: UUID
    let appID: UUID
    let name: String
    let title: String?
    /// Preview metadata (docs/LANDING.md): a description and an https image.
    let description: String?
    let imageURL: String?
    let parameters: [ParameterSpec]
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    let sortMicros: Int64

    static let columns = "id, app_id, name, title, params, version, created_at, updated_at, (extract(epoch FROM created_at) * 1000000)::int8, description, image_url"

    init(row: Row) throws {
        let params: JSONB
        (id, appID, name, title, params, version, createdAt, updatedAt, sortMicros) =
            try row.decode((UUID, UUID, String, String?, JSONB, Int, Date, Date, Int64).self)
        (description, imageURL) = try (row.decode(9, as: String?.self), row.decode(10, as: String?.self))
        let errors = FieldErrors()
        parameters = ParameterSpecJSON.read((try? JSONValue.parse(params.json)) ?? .object([]), at: "/params", errors)
    }

    var preview: LinkPreview { LinkPreview(title: title, description: description, imageURL: imageURL) }

    var type: DestinationType { DestinationType(name: name, parameters: parameters) }

    var json: JSONValue {
        JSONValue.object([
            "name": .string(name),
            "title": .optional(title),
            "description": .optional(description),
            "imageUrl": .optional(imageURL),
            "params": ParameterSpecJSON.json(parameters),
            "createdAt": .timestamp(createdAt),
            "updatedAt": .timestamp(updatedAt),
        ]).compacted
    }

    func location(app: UUID) -> String { "/v1/apps/\(app.canonicalText)/destinations/\(name)" }
}
