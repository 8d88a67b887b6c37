import Foundation
import LinkKit

/// An uploaded links file (`POST /v1/links/import`) read into one body of `POST /v1/links` a row, or the problems
/// of the row's cells: a Firebase Dynamic Links Takeout file (`firebase`, `FirebaseTakeoutReader`,
/// `FirebaseLinkItem`) or linkd's own file (`csv`, `LinkCSV`). A file that is no CSV, or a header without the
/// columns it needs, refuses the whole upload (400).
struct LinkImportFile {
    enum Format: String, CaseIterable {
        case firebase, csv
    }

    /// One data row: its record number (the header is 1), and its body or the problems of its cells.
    struct Row {
        let number: Int
        let body: JSONValue?
        let problems: [(column: String, detail: String)]
    }

    let rows: [Row]
    /// The columns of the rows' bodies, to name the column of a problem found at a pointer.
    let columns: LinkColumns
    /// Header cells not read: their 1-based column and text.
    let ignored: [(column: Int, name: String)]

    /// Reads `bytes` as `format`. `domain` fills empty domain cells of a `csv` file. A Takeout row's deep link is
    /// resolved by `resolver` among `workspace`'s domains; an archived row expires at `now` at the latest.
    init(_ bytes: [UInt8], format: Format, domain: String?, resolver: Resolver, workspace: UUID, now: Date = Date()) throws {
        switch format {
        case .firebase:
            let reader = FirebaseTakeoutReader()
            var entries: [FirebaseTakeoutReader.Entry]
            do {
                entries = try reader.feed(bytes)
                entries += try reader.finish()
            } catch {
                throw ServiceError.badRequest("The file cannot be read: \(error.description).")
            }
            try Self.checkCount(entries.count)
            rows = entries.map { entry in
                switch entry.outcome {
                case .link(let row):
                    Row(number: entry.row, body: FirebaseLinkItem.body(row, resolver: resolver, workspace: workspace, now: now), problems: [])
                case .problems(let problems):
                    Row(number: entry.row, body: nil, problems: problems.map { ($0.column, Self.sentence($0.column, $0.message)) })
                }
            }
            columns = FirebaseLinkItem.columns
            ignored = reader.header?.ignored.map { ($0.column, $0.name) } ?? []
        case .csv:
            let reader = CSVReader(maxColumns: 64, maxFieldBytes: 16 * 1024)
            var records: [[String]]
            do {
                records = try reader.feed(bytes)
                records += try reader.finish()
            } catch {
                throw ServiceError.badRequest("The file cannot be read: \(error.description).")
            }
            guard let first = records.first else { throw ServiceError.badRequest("The file is empty: it needs a header row naming its columns.") }
            let header = LinkCSV.header(first)
            guard header.contains(where: { $0 != nil }) else {
                throw ServiceError.badRequest("The first row must name the columns (domain, slug, url, app, destinationType, params, ...: docs/LINKS-IMPORT.md).")
            }
            var rows: [Row] = []
            for (index, record) in records.enumerated().dropFirst() where !record.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) {
                let (body, problems) = LinkCSV.body(record, header: header, domain: domain)
                rows.append(Row(number: index + 1, body: body, problems: problems))
            }
            try Self.checkCount(rows.count)
            self.rows = rows
            columns = LinkCSV.columns
            ignored = header.enumerated().compactMap { $0.element == nil ? ($0.offset + 1, first[$0.offset]) : nil }
        }
    }

    /// `Short link is required` from the reader's `short link`, `is required`.
    private static func sentence(_ column: String, _ message: String) -> String {
        "\(column.prefix(1).uppercased())\(column.dropFirst()) \(message)."
    }

    private static func checkCount(_ count: Int) throws {
        guard count <= LinkBulkBody.maxItems else {
            throw ServiceError.validation([.init(pointer: "", detail: "An import holds at most \(LinkBulkBody.maxItems) links; split the file.")])
        }
    }
}
