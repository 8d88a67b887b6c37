import Foundation
import LinkKit

/// The components of the audit log endpoints (`OpenAPIDocument`).
extension APISchemas {
    static let audit: [(name: String, schema: Schema)] = [
        (
            "AuditEntry",
            AuditEntry.members.schema(closed: false).described("One change: who, from where, when, what.")
        )
    ]
}
