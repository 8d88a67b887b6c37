import Foundation

/// One file of the console as it is served: its bytes with their ETag, the gzip form when it is smaller,
/// and its media type. Made once, when the console is loaded.
struct ConsoleFile: Sendable {
    let document: StaticDocument
    /// The gzip form, when compressing saves something.
    let gzipped: [UInt8]?
    let contentType: String

    init(bytes: [UInt8], contentType: String, modified: Date) {
        document = StaticDocument(StaticDocument.Body(bytes), lastModified: modified)
        self.contentType = contentType
        gzipped = Gzip.compress(bytes).flatMap { $0.count < bytes.count ? $0 : nil }
    }

    /// A different representation needs its own strong tag (RFC 9110 §8.8.3): the gzip form's ends in `-gz`.
    var gzipETag: String { String(document.etag.dropLast()) + "-gz\"" }

    /// Media types by file extension; files of other kinds are not served.
    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/x-icon",
        "json": "application/json",
    ]
}
