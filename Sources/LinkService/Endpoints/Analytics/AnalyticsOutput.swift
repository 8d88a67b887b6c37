import HTTPServer
import LinkKit

/// Renders an analytics answer as JSON or as CSV (`Accept: text/csv` or `format=csv`): one header row,
/// then one row per record, written by `CSVWriter` (RFC 4180 quoting; a cell a spreadsheet would run, such as a
/// `utm_source` anyone can plant with a click, starts with `'`: `CSVFormulaEscape`).
struct AnalyticsOutput {
    var json: JSONValue
    var csvHeader: [String]
    var csvRows: [[String]]

    func response(csv: Bool) -> Response {
        guard csv else { return Response.json(json.serializedBytes) }
        var out: [UInt8] = []
        CSVWriter.append(csvHeader, to: &out)
        for row in csvRows { CSVWriter.append(row, to: &out) }
        return Response(status: 200, headers: ["Content-Type": "text/csv; charset=utf-8; header=present"], body: out)
    }
}
