import ByteText
import Foundation
import HTTPServer
import LinkKit

/// Keyset pagination over `(created_at, id)`: stable under inserts, no OFFSET scans.
///
/// The cursor is opaque to clients (base64url of `<created_at in µs since 1970>:<id>`).
struct Page: Sendable {
    static let defaultLimit = 50
    static let maxLimit = 200

    let limit: Int
    /// The last row of the previous page, or nil for the first page.
    let after: (micros: Int64, id: UUID)?

    /// Reads `limit` (`defaultLimit` when absent) and `cursor` from the query string.
    /// - Throws: `ServiceError.badRequest` for a limit outside 1...`maxLimit` (200) or a cursor we did not issue.
    init(_ request: Request, defaultLimit: Int = Page.defaultLimit, maxLimit: Int = Page.maxLimit) throws(ServiceError) {
        if let text = request.query("limit") {
            guard let value = Int(text), (1...maxLimit).contains(value) else {
                throw .badRequest("limit must be a whole number from 1 to \(maxLimit).")
            }
            limit = value
        } else {
            limit = defaultLimit
        }
        if let cursor = request.query("cursor") {
            guard let decoded = Self.decode(cursor) else { throw .badRequest("The cursor is not one this API issued.") }
            after = decoded
        } else {
            after = nil
        }
    }

    static func cursor(micros: Int64, id: UUID) -> String {
        Data("\(micros):\(id.canonicalText)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    private static func decode(_ cursor: String) -> (Int64, UUID)? {
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard cursor.count <= 100, let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let micros = Int64(parts[0]), let id = UUID(uuidString: String(parts[1])) else { return nil }
        return (micros, id)
    }

    /// The list response: `{"items": [...], "next": "<path>?cursor=…"|null}` plus a `Link: <…>; rel="next"` header.
    /// - Parameters:
    ///   - items: up to `limit + 1` rows, each with its sort key; the extra row only says another page exists.
    func response(_ request: Request, items: [(json: JSONValue, micros: Int64, id: UUID)]) -> Response {
        let visible = items.prefix(limit)
        let next: String? = items.count > limit ? visible.last.map { self.next(request, after: ($0.micros, $0.id)) } : nil
        let body = JSONValue.object([
            JSONMember(key: "items", value: .array(visible.map(\.json))),
            JSONMember(key: "next", value: next.map(JSONValue.string) ?? .null),
        ])
        var response = Response.json(body.serializedBytes)
        if let next { response.headers.add("Link", "<\(next)>; rel=\"next\"") }
        return response
    }

    /// The path and query of the page after the row `last` (`micros`, `id`): the request's, with its cursor.
    func next(_ request: Request, after last: (micros: Int64, id: UUID)) -> String {
        var query = request.queryItems.filter { $0.name != "cursor" && $0.name != "limit" }.map { "\(Self.escape($0.name))=\(Self.escape($0.value))" }
        query.append("limit=\(limit)")
        query.append("cursor=\(Self.cursor(micros: last.micros, id: last.id))")
        return request.path + "?" + query.joined(separator: "&")
    }

    private static func escape(_ text: String) -> String {
        Percent.encoded(text, keeping: allowedInQueryValue)
    }

    /// What a query name or value keeps as it is: RFC 3986's query characters (unreserved, sub-delims, `:`, `@`,
    /// `/`, `?`) but `&`, `=` and `+`, which would split it or read as a space.
    static func allowedInQueryValue(_ byte: UInt8) -> Bool {
        Percent.isUnreserved(byte) || "!$'()*,;:@/?".utf8.contains(byte)
    }
}
