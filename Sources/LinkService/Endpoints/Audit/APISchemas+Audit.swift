import Foundation
import LinkKit

/// The components of the audit log endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let audit: [(name: String, schema: Schema)] = [
        (
            "AuditEntry",
            Schema.object(
                [
                    .required("id", Schema.integer(minimum: 1).described("Increases with every change.")),
                    .required(
                        "keyId",
                        Schema.uuid.nullable.described(
                            "The API key that made the change; null for changes made from the command line or by a signed-in person.")),
                    .required(
                        "personId",
                        Schema.uuid.nullable.described(
                            "The person who made the change: signed in, or who created the key; null when nobody is named.")),
                    .required(
                        "actor",
                        Schema.object(
                            [
                                .required("type", Schema.enumeration(["person", "key"])),
                                .required("id", Schema.uuid),
                                .required(
                                    "name",
                                    Schema.string.nullable.described(
                                        "The key's name (its prefix when unnamed) or the person's email, as it was when the change was made."
                                    )),
                            ], closed: false
                        ).nullable.described(
                            "Who made the change: the key, else the signed-in person; null for changes made from the command line.")),
                    .required(
                        "address",
                        Schema.string.nullable.described(
                            "The client address the change came from (behind a trusted proxy, the one it forwarded); null for changes made from the command line or before linkd recorded addresses."
                        )),
                    .required("at", Schema.timestamp),
                    .required("action", Schema.enumeration(["create", "update", "delete", "replace"])),
                    .required("resourceType", Schema.string.described("`key`, `team`, `app`, `destination`, `domain`, `rules`…")),
                    .required(
                        "resourceId", Schema.string.described("The resource's address: an id, a team ID, a hostname, `<app id>/<name>`.")),
                    .required(
                        "resourceName",
                        Schema.string.nullable.described(
                            """
                            What people call the resource, from the entry: a link's `domain/slug`, an app's name and platform (`Acme Shop (iOS)`), \
                            a destination's title and type with its app's name and platform, a webhook's URL (a delivery's: its subscription's), \
                            a key's or team's name; null when the entry names no single resource (a bulk create) or has no name.
                            """)),
                    .required("before", Schema([]).described("The resource before the change (null on create).")),
                    .required("after", Schema([]).described("The resource after the change (null on delete).")),
                ], closed: false
            ).described("One change: who, from where, when, what.")
        )
    ]
}
