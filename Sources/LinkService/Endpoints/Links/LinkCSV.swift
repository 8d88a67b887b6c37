import Foundation
import LinkKit

/// linkd's own links file (`format=csv` of `POST /v1/links/import`, and what `GET /v1/links/export` writes): a
/// header row naming the columns (any order, any case, any subset), then one link a row (docs/LINKS-IMPORT.md).
/// Each column is a member of the body of `POST /v1/links`, so a row is checked exactly as that body is.
enum LinkCSV {
    static let columns = LinkColumns(columns: [
        ("domain", "/domain"), ("slug", "/slug"), ("url", "/url"), ("app", "/app"), ("destinationType", "/destination/type"),
        ("params", "/destination/params"), ("name", "/name"), ("tags", "/tags"),
        ("utm_source", "/campaign/source"), ("utm_medium", "/campaign/medium"), ("utm_campaign", "/campaign/campaign"),
        ("utm_term", "/campaign/term"), ("utm_content", "/campaign/content"),
        ("iosFallback", "/fallbacks/ios"), ("ipadFallback", "/fallbacks/ipad"), ("androidFallback", "/fallbacks/android"),
        ("desktopFallback", "/fallbacks/desktop"), ("skipStore", "/skipStore"),
        ("previewTitle", "/preview/title"), ("previewDescription", "/preview/description"), ("previewImageUrl", "/preview/imageUrl"),
        ("expiresAt", "/expiresAt"), ("maxClicks", "/maxClicks"), ("data", "/data"),
        ("targets", "/targets"), ("variants", "/variants"),
    ])
    /// Columns whose text is kept as written; the others are read with surrounding spaces trimmed.
    private static let asWritten: Set<String> = [
        "name", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content",
        "previewTitle", "previewDescription",
    ]
    /// Columns holding JSON: an object (`params`, `data`) or, for `tags`, an array (or a comma-separated list).
    private static let jsonObjects: Set<String> = ["params", "data"]

    /// The file's columns: for each cell of the header row, the index of the column it names (nil: ignored,
    /// unknown or named twice).
    static func header(_ cells: [String]) -> [Int?] {
        var seen: Set<Int> = []
        return cells.map { cell in
            let name = cell.trimmingCharacters(in: .whitespaces).lowercased()
            guard let index = columns.columns.firstIndex(where: { $0.name.lowercased() == name }), !seen.contains(index) else { return nil }
            seen.insert(index)
            return index
        }
    }

    /// The body of one data row (`cells` read with `header`), or the problems of its cells, by column. Empty
    /// cells (or of spaces only) are absent; `domain` fills an empty domain cell. A cell an export wrote with a
    /// leading `'` (one a spreadsheet would run) reads as the value exported.
    static func body(_ cells: [String], header: [Int?], domain: String?) -> (body: JSONValue?, problems: [(column: String, detail: String)])
    {
        var values: [(pointer: String, value: JSONValue)] = []
        var problems: [(column: String, detail: String)] = []
        var hasDomain = false
        for (position, index) in header.enumerated() {
            guard let index, position < cells.count, !cells[position].allSatisfy(\.isWhitespace) else { continue }
            let (name, pointer) = columns.columns[index]
            // The quote an export put before a cell a spreadsheet would run comes off (`CSVFormulaEscape`).
            let cell = CSVFormulaEscape.restored(
                asWritten.contains(name) ? cells[position] : cells[position].trimmingCharacters(in: .whitespaces))
            if cell.utf8.contains(0) {
                problems.append((name, "The cell contains a NUL character, which linkd does not accept."))
                continue
            }
            switch name {
            case _ where jsonObjects.contains(name):
                guard let value = try? JSONValue.parse(cell), case .object = value else {
                    problems.append((name, "\(name) must be a JSON object such as {\"id\":42}."))
                    continue
                }
                values.append((pointer, value))
            case "targets", "variants":
                guard let value = try? JSONValue.parse(cell), case .array = value else {
                    problems.append((name, "\(name) must be a JSON array, as the API takes it."))
                    continue
                }
                values.append((pointer, value))
            case "tags":
                if cell.hasPrefix("[") {
                    guard let value = try? JSONValue.parse(cell), case .array = value else {
                        problems.append((name, "tags must be a JSON array of strings or a comma-separated list."))
                        continue
                    }
                    values.append((pointer, value))
                } else {
                    let tags = cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                    values.append((pointer, .array(tags.map(JSONValue.string))))
                }
            case "maxClicks":
                values.append((pointer, Int64(cell) != nil ? .number(cell) : .string(cell)))
            case "skipStore":
                let flag = cell.lowercased()
                values.append((pointer, flag == "true" ? .bool(true) : flag == "false" ? .bool(false) : .string(cell)))
            default:
                if name == "domain" { hasDomain = true }
                values.append((pointer, .string(cell)))
            }
        }
        if !hasDomain, let domain { values.insert(("/domain", .string(domain)), at: 0) }
        return (problems.isEmpty ? LinkColumns.body(values) : nil, problems)
    }

    /// The header row of an export: every column.
    static var headerRow: [String] { columns.columns.map(\.name) }

    /// `link` as a row of an export, in the order of `headerRow` (`CSVWriter` neutralises the cells a spreadsheet
    /// would run).
    static func row(_ link: Link) -> [String] {
        func text(_ value: JSONValue?) -> String { value?.stringValue ?? "" }
        let params: String
        if let destination = link.destination { params = (destination["params"] ?? .object([])).serialized } else { params = "" }
        return [
            link.hostname, link.slug, link.webURL ?? "", link.appID?.canonicalText ?? "", text(link.destination?["type"]), params,
            link.name ?? "", link.tags.isEmpty ? "" : JSONValue.array(link.tags.map(JSONValue.string)).serialized,
            link.campaign.source ?? "", link.campaign.medium ?? "", link.campaign.campaign ?? "", link.campaign.term ?? "",
            link.campaign.content ?? "",
            text(link.fallbacks["ios"]), text(link.fallbacks["ipad"]), text(link.fallbacks["android"]), text(link.fallbacks["desktop"]),
            link.skipStore ? "true" : "false",
            text(link.preview["title"]), text(link.preview["description"]), text(link.preview["imageUrl"]),
            link.expiresAt.map { JSONValue.timestamp($0).stringValue! } ?? "", link.maxClicks.map { String($0) } ?? "",
            link.data?.serialized ?? "", link.targetsJSON?.serialized ?? "", link.variantsJSON?.serialized ?? "",
        ]
    }
}
