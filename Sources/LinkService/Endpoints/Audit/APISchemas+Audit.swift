import Foundation
import LinkKit

/// The components of the audit log endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let audit: [(name: String, schema: Schema)] = [
        ("AuditEntry", Schema.object([
            .required("id", Schema.integer(minimum: 1).described("Increases with every change.")),
            .required("keyId", Schema.uuid.nullable.described("The API key that made the change; null for changes made from the command line.")),
            .required("at", Schema.timestamp),
            .required("action", Schema.enumeration(["create", "update", "delete", "replace"])),
            .required("resourceType", Schema.string.described("`key`, `team`, `app`, `destination`, `domain`, `rules`…")),
            .required("resourceId", Schema.string.described("The resource's address: an id, a team ID, a hostname, `<app id>/<name>`.")),
            .required("resourceName", Schema.string.nullable.described("""
                What people call the resource, from the entry: a link's `domain/slug`, an app's name and platform (`Acme Shop (iOS)`), \
                a destination's title and type with its app's name and platform, a webhook's URL (a delivery's: its subscription's), \
                a key's or team's name; null when the entry names no single resource (a bulk create) or has no name.
                """)),
            .required("before", Schema([]).described("The resource before the change (null on create).")),
            .required("after", Schema([]).described("The resource after the change (null on delete).")),
        ], closed: false).described("One change: who, when, what.")),
    ]
}
