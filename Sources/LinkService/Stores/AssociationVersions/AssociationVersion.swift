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

    var json: JSONValue {
        JSONValue.object([
            JSONMember(key: "n", value: .integer(number)),
            JSONMember(key: "createdAt", value: .timestamp(createdAt)),
            JSONMember(key: "aasaEtag", value: .string(aasaETag)),
            JSONMember(key: "assetlinksEtag", value: .string(assetLinksETag)),
            JSONMember(key: "auditId", value: auditID.map { .integer(Int($0)) } ?? .null),
            JSONMember(key: "cause", value: .string(auditID == nil ? "found" : "write")),
        ])
    }

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
