import Foundation
import LinkKit

/// An uploaded links file (`POST /v1/links/import`) read into one body of `POST /v1/links` a row, or the problems
/// of the row's cells: a Firebase Dynamic Links Takeout file (`firebase`, `FirebaseTakeoutReader`,
/// `FirebaseLinkItem`), linkd's own file (`csv`, `LinkCSV`) or another shortener's export (`bitly`, `rebrandly`,
/// `dub`: `ShortenerLinkFile`). A file that is no CSV, or a header without the
/// columns it needs, refuses the whole upload (400).
struct LinkImportFile {
    enum Format: String, CaseIterable {
        case firebase, csv, bitly, rebrandly, dub
    }

    /// One data row: its record number (the header is 1), and its body or the problems of its cells, or why it is
    /// skipped (nothing to import); the columns of its body where they differ from the file's.
    struct Row {
        let number: Int
        let body: JSONValue?
        let problems: [(column: String, detail: String)]
        var skipped: String? = nil
        var columns: LinkColumns? = nil
    }

    let rows: [Row]
    /// The columns of the rows' bodies, to name the column of a problem found at a pointer.
    let columns: LinkColumns
    /// Header cells not read: their 1-based column and text.
    let ignored: [(column: Int, name: String)]

    /// Reads `bytes` as `format`. `domain` fills empty domain cells of a `csv` file, and is the domain of every row of
    /// another shortener's export. A Takeout row's deep link is
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
                    Row(
                        number: entry.row, body: FirebaseLinkItem.body(row, resolver: resolver, workspace: workspace, now: now),
                        problems: [])
                case .problems(let problems):
                    Row(number: entry.row, body: nil, problems: problems.map { ($0.column, Self.sentence($0.column, $0.message)) })
                }
            }
            columns = FirebaseLinkItem.columns
            ignored = reader.header?.ignored.map { ($0.column, $0.name) } ?? []
        case .bitly, .rebrandly, .dub:
            let shortener = ShortenerLinkFile.Format(rawValue: format.rawValue)!
            let records = try Self.records(bytes)
            guard let first = records.first else {
                throw ServiceError.badRequest("The file is empty: it needs a header row naming its columns.")
            }
            let header = ShortenerLinkFile.header(first, format: shortener)
            guard header.contains(where: { $0 == .url }) else {
                let names = ShortenerLinkFile.names(shortener).first { $0.0 == .url }?.1.joined(separator: ", ") ?? ""
                throw ServiceError.badRequest(
                    "The first row must name the columns; a \(format.rawValue) export needs a destination column (\(names)): docs/LINKS-IMPORT.md."
                )
            }
            let names = ShortenerLinkFile.columns(header, cells: first)
            var rows: [Row] = []
            for (index, record) in records.enumerated().dropFirst() where !record.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) {
                let read = ShortenerLinkFile.read(record, header: header, names: names, format: shortener, domain: domain, now: now)
                rows.append(Row(number: index + 1, body: read.body, problems: read.problems, skipped: read.skipped, columns: read.columns))
            }
            try Self.checkCount(rows.count)
            self.rows = rows
            columns = LinkColumns(columns: [])
            ignored = header.enumerated().compactMap { $0.element == nil ? ($0.offset + 1, first[$0.offset]) : nil }
        case .csv:
            let records = try Self.records(bytes)
            guard let first = records.first else {
                throw ServiceError.badRequest("The file is empty: it needs a header row naming its columns.")
            }
            let header = LinkCSV.header(first)
            guard header.contains(where: { $0 != nil }) else {
                throw ServiceError.badRequest(
                    "The first row must name the columns (domain, slug, url, app, destinationType, params, ...: docs/LINKS-IMPORT.md).")
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

    /// The records of a CSV file; 400 when it is no CSV.
    private static func records(_ bytes: [UInt8]) throws -> [[String]] {
        let reader = CSVReader(maxColumns: 64, maxFieldBytes: 16 * 1024)
        do {
            return try reader.feed(bytes) + reader.finish()
        } catch {
            throw ServiceError.badRequest("The file cannot be read: \(error.description).")
        }
    }

    /// `Short link is required` from the reader's `short link`, `is required`.
    private static func sentence(_ column: String, _ message: String) -> String {
        "\(column.prefix(1).uppercased())\(column.dropFirst()) \(message)."
    }

    private static func checkCount(_ count: Int) throws {
        guard count <= LinkBulkBody.maxItems else {
            throw ServiceError.validation([
                .init(pointer: "", detail: "An import holds at most \(LinkBulkBody.maxItems) links; split the file.")
            ])
        }
    }
}
