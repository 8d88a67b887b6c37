import ByteText
import Foundation
import HTTPServer
import LinkKit

/// The one reading of `limit` and `cursor` behind every list endpoint, and the one list envelope.
///
/// The cursor is opaque to clients (base64url of `<key>:<id>`, the key `created_at` in µs since 1970 or the sort's own).
extension Page {
    /// Reads `limit` (`defaultLimit` when absent) and `cursor` from the query string; `keyed`: a list with its own
    /// sort keys reads the cursor's key itself.
    /// - Throws: `ServiceError.badRequest` for a limit outside 1...`maxLimit` (200) or a cursor we did not issue.
    init(_ request: Request, defaultLimit: Int = Page.defaultLimit, maxLimit: Int = Page.maxLimit, keyed: Bool = false) throws(ServiceError)
    {
        var limit = defaultLimit
        if let text = request.query("limit") {
            guard let value = Int(text), (1...maxLimit).contains(value) else {
                throw .badRequest("limit must be a whole number from 1 to \(maxLimit).")
            }
            limit = value
        }
        var position: (key: String, id: UUID)?
        if let cursor = request.query("cursor") {
            guard let decoded = Self.decode(cursor), keyed || Int64(decoded.0) != nil else {
                throw .badRequest("The cursor is not one this API issued.")
            }
            position = decoded
        }
        self.init(limit: limit, position: position)
    }

    static func cursor(micros: Int64, id: UUID) -> String {
        cursor(key: String(micros), id: id)
    }

    static func cursor(key: String, id: UUID) -> String {
        Base64URL.encoded("\(key):\(id.canonicalText)".utf8)
    }

    private static func decode(_ cursor: String) -> (String, UUID)? {
        guard cursor.count <= maxCursorLength, let data = Base64URL.decoded(cursor), let text = String(data: data, encoding: .utf8),
            let colon = text.lastIndex(of: ":"), let id = UUID(uuidString: String(text[text.index(after: colon)...]))
        else { return nil }
        return (String(text[..<colon]), id)
    }

    /// The list response: `{"items": [...], "next": "<path>?cursor=…"|null}` plus a `Link: <…>; rel="next"` header.
    /// - Parameters:
    ///   - items: up to `limit + 1` rows, each with its sort key; the extra row only says another page exists.
    func response(_ request: Request, items: [(json: JSONValue, micros: Int64, id: UUID)]) -> Response {
        response(request, keyed: items.map { ($0.json, String($0.micros), $0.id) })
    }

    /// The list response of rows with their cursor keys; `total`, when given, is how many rows the list holds.
    func response(_ request: Request, keyed items: [(json: JSONValue, key: String, id: UUID)], total: Int? = nil) -> Response {
        let visible = items.prefix(limit)
        let next: String? = items.count > limit ? visible.last.map { self.next(request, key: $0.key, id: $0.id) } : nil
        var members = [
            JSONMember(key: "items", value: .array(visible.map(\.json))),
            JSONMember(key: "next", value: next.map(JSONValue.string) ?? .null),
        ]
        if let total { members.append(JSONMember(key: "total", value: .integer(total))) }
        let body = JSONValue.object(members)
        var response = Response.json(body.serializedBytes)
        if let next { response.headers.add("Link", "<\(next)>; rel=\"next\"") }
        return response
    }

    /// The path and query of the page after the row `last` (`micros`, `id`): the request's, with its cursor.
    func next(_ request: Request, after last: (micros: Int64, id: UUID)) -> String {
        next(request, key: String(last.micros), id: last.id)
    }

    /// The path and query of the page after the row whose cursor key is `key`.
    func next(_ request: Request, key: String, id: UUID) -> String {
        var query = request.queryItems.filter { $0.name != "cursor" && $0.name != "limit" }.map {
            "\(Self.escape($0.name))=\(Self.escape($0.value))"
        }
        query.append("limit=\(limit)")
        query.append("cursor=\(Self.cursor(key: key, id: id))")
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
