import Foundation

/// Keyset pagination over `(created_at, id)`, or another sort key and `id` (a list with a `sort`): stable under
/// inserts, no OFFSET scans.
///
/// A plain value, so stores take it without reading a request: an endpoint reads it from the query string and
/// answers with it (`API/Page+Request.swift`: `limit`, the opaque `cursor`, the list envelope).
struct Page: Sendable {
    static let defaultLimit = 50
    static let maxLimit = 200
    /// The longest cursor read: a sort key may be a 200-character slug.
    static let maxCursorLength = 400

    let limit: Int
    /// The last row of the previous page, its key as the cursor wrote it, or nil for the first page.
    let position: (key: String, id: UUID)?

    /// - Parameters:
    ///   - limit: rows per page; a store reads `limit + 1` to learn whether another page exists.
    ///   - position: the last row of the previous page, or nil for the first page.
    init(limit: Int = Page.defaultLimit, position: (key: String, id: UUID)? = nil) {
        self.limit = limit
        self.position = position
    }

    /// The last row of the previous page in `(created_at, id)` order, or nil for the first page.
    var after: (micros: Int64, id: UUID)? {
        position.flatMap { position in Int64(position.key).map { ($0, position.id) } }
    }
}
