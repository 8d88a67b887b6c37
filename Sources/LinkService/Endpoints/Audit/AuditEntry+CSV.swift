import Foundation
import LinkKit

/// An audit entry as a row of `GET /v1/audit?format=csv` (written with `CSVWriter`).
extension AuditEntry {
    /// The columns of the CSV export, in the order of `csvRow`.
    static let csvHeader = [
        "id", "at", "actorType", "actorId", "actorName", "address", "action", "resourceType", "resourceId",
        "resourceName", "before", "after",
    ]

    /// The entry as a row of the CSV export; `before` and `after` as JSON text.
    var csvRow: [String] {
        [
            String(id), RFC3339.string(at), actor?.type ?? "", actor?.id.canonicalText ?? "", actorName ?? "", address ?? "", action,
            resourceType, resourceID, resourceName ?? "", before?.serialized ?? "", after?.serialized ?? "",
        ]
    }
}
