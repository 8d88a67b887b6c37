import Foundation
import LinkKit
import Postgres

/// One numbered version of a domain's served association files (`association_versions`): the ETags of both files,
/// when it was first served, and the audit entry of the write that caused it (nil: found at start). The bytes and
/// the snapshot of what decides are read only for one version (`AssociationVersionStore.find`).
struct AssociationVersion: ResourceRow {
    let id: UUID
    let domainID: UUID
    let number: Int
    let aasaETag: String
    let assetLinksETag: String
    let auditID: Int64?
    let createdAt: Date
    let sortMicros: Int64

    var json: JSONValue { Self.members.json(self) }

    /// The API's form, declared once for the answers (`json`) and the document's components: the list item, the
    /// version with its files and the diff's two sides.
    static let members: [ResourceMember<AssociationVersion>] = [
        .required("n", Schema.integer(minimum: 1).described("The version's number, from 1 per domain, without gaps.")) {
            .integer($0.number)
        },
        .required("createdAt", Schema.timestamp.described("When the domain started serving these files.")) { .timestamp($0.createdAt) },
        .required("aasaEtag", Schema.string.described("The ETag the AASA file was served with.")) { .string($0.aasaETag) },
        .required("assetlinksEtag", Schema.string.described("The ETag assetlinks.json was served with.")) { .string($0.assetLinksETag) },
        .nullable(
            "auditId",
            Schema.integer.nullable.described("The audit entry of the write that caused it (`GET /v1/audit`); null when found at start.")
        ) { $0.auditID.map { .integer(Int($0)) } ?? .null },
        .required(
            "cause",
            Schema.string.with("enum", .array([.string("write"), .string("found")]))
                .described(
                    "`write`: recorded by the write that changed the files; `found`: the node found the files changed when it loaded the catalog."
                )
        ) { .string($0.auditID == nil ? "found" : "write") },
    ]

    init(row: Row) throws {
        (id, domainID, number, aasaETag, assetLinksETag, auditID, createdAt, sortMicros) =
            try row.decode((UUID, UUID, Int, String, String, Int64?, Date, Int64).self)
    }
}

/// A version with its files and what decided its URLs (`snapshot`: the domain's settings, its rules with their
/// apps in order, its link space, as stored when the version was recorded).
struct AssociationVersionFiles: Sendable {
    let version: AssociationVersion
    let aasa: [UInt8]
    let assetLinks: [UInt8]
    let snapshot: JSONValue
}
