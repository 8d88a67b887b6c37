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

    var json: JSONValue { Self.members.json(self) }

    /// The API's form, declared once for the answers (`json`) and the document's `Destination` component.
    static let members: [ResourceMember<Destination>] = [
        .required("name", Schema.identifier.described("The type's name, unique per app: what resolve answers as `type`.")) {
            .string($0.name)
        },
        .optional("title", Schema.string(maxLength: TextLimit.name.scalars)) { .optional($0.title) },
        .optional("description", Schema.string(maxLength: TextLimit.comment.scalars).described("Preview cards and the landing page.")) {
            .optional($0.description)
        },
        .optional("imageUrl", Schema.url.described("An https image for preview cards.")) { .optional($0.imageURL) },
        .required("params", ParameterSpecJSON.schema) { ParameterSpecJSON.json($0.parameters) },
        .required("requiresSignIn", DestinationFields.requiresSignIn.schema) { .bool($0.requiresSignIn) },
        .required("createdAt", Schema.created) { .timestamp($0.createdAt) },
        .required("updatedAt", Schema.updated) { .timestamp($0.updatedAt) },
    ]

    /// `<app id>/<name>`.
    var auditID: String { "\(appID.canonicalText)/\(name)" }
}
