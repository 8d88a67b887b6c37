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
    let parameters: [ParameterSpec]
    /// Links to it are for signed-in users (docs/CODEGEN.md).
    let requiresSignIn: Bool
    let version: Int
    let createdAt: Date
    let updatedAt: Date
    let sortMicros: Int64

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

    var location: String { "/v1/apps/\(appID.canonicalText)/destinations/\(name)" }
    /// `<app id>/<name>`.
    var auditID: String { "\(appID.canonicalText)/\(name)" }
}
