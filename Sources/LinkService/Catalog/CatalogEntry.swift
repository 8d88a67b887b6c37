import Foundation
import LinkKit

/// One link domain, ready to serve: compiled rules and the rendered association files.
///
/// A class (immutable, so `Sendable`): a read copies one reference out of the catalog's lock instead of
/// retaining every field of a large struct.
final class CatalogEntry: Sendable {
    let domainID: UUID
    let workspaceID: UUID
    let hostname: String
    let settings: DomainSettingsInput
    let compiled: CompiledDomain
    let aasa: StaticDocument
    let assetLinks: StaticDocument

    init(domain: Domain, compiled: CompiledDomain, lastModified: Date) {
        domainID = domain.id
        workspaceID = domain.workspaceID
        hostname = domain.hostname
        settings = domain.settings
        self.compiled = compiled
        aasa = StaticDocument(Array(compiled.aasaJSON.utf8), lastModified: lastModified)
        assetLinks = StaticDocument(Array(compiled.assetLinksJSON.utf8), lastModified: lastModified)
    }
}

/// Bytes served as they are, with a strong ETag derived from the bytes (so every node agrees) and a
/// Last-Modified time.
struct StaticDocument: Sendable {
    let bytes: [UInt8]
    /// `"<first 32 hex digits of SHA-256>"`.
    let etag: String
    let lastModified: Date
    /// IMF-fixdate (RFC 9110 §5.6.7), whole seconds.
    let lastModifiedHeader: String

    init(_ bytes: [UInt8], lastModified: Date) {
        self.bytes = bytes
        etag = "\"" + SHA256.hex(bytes).prefix(32) + "\""
        let seconds = Date(timeIntervalSince1970: lastModified.timeIntervalSince1970.rounded(.down))
        self.lastModified = seconds
        lastModifiedHeader = HTTPDate.format(seconds)
    }
}
