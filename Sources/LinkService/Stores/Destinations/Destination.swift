import Foundation
import LinkKit
import Postgres

/// A destination type of an app as stored: the typed in-app screen links resolve to.
struct Destination: VersionedResource {
    static let auditType = "destination"

    let id: UUID
    let appID: UUID
    let name: String
    let title: String?
    /// Preview metadata (docs/LANDING.md): a description and an https image.
    let description: String?
    let imageURL: String?
    let parameters: [ParameterSpec]
    /// Links to it are for signed-in users (docs/CODEGEN.md).
    let requiresSignIn: Bool
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    let sortMicros: Int64

    var preview: LinkPreview { LinkPreview(title: title, description: description, imageURL: imageURL) }

    var type: DestinationType { DestinationType(name: name, parameters: parameters, requiresSignIn: requiresSignIn) }

    var json: JSONValue {
        JSONValue.object([
            "name": .string(name),
            "title": .optional(title),
            "description": .optional(description),
            "imageUrl": .optional(imageURL),
            "params": ParameterSpecJSON.json(parameters),
            "requiresSignIn": .bool(requiresSignIn),
            "createdAt": .timestamp(createdAt),
            "updatedAt": .timestamp(updatedAt),
        ]).compacted
    }

    /// `<app id>/<name>`.
    var auditID: String { "\(appID.canonicalText)/\(name)" }
}
