import HTTPServer
import LinkKit

/// Renders an analytics answer as JSON or as CSV (`Accept: text/csv` or `format=csv`): one header row,
/// then one row per record, RFC 4180 quoting.
struct AnalyticsOutput {
    var json: JSONValue
    var csvHeader: [String]
    var csvRows: [[String]]

    func response(csv: Bool) -> Response {
        guard csv else { return Response.json(json.serializedBytes) }
        var text = csvHeader.map(Self.quote).joined(separator: ",") + "\r\n"
        for row in csvRows {
            text += row.map(Self.quote).joined(separator: ",") + "\r\n"
        }
        return Response.text(text, contentType: "text/csv; charset=utf-8; header=present")
    }

    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
