/// Reads a Firebase Dynamic Links Takeout CSV fed in chunks (docs/LINKS-IMPORT.md): its header, then each data
/// row's link or problems, with the row's number for a per-row report. A first record that is a link rather
/// than a header is read with the guide's column order.
final class FirebaseTakeoutReader {
    /// One data row: its record number in the file (the header is 1) and what it gave.
    struct Entry: Equatable, Sendable {
        let row: Int
        let outcome: FirebaseRowOutcome
    }

    /// The file's column mapping, once its first record has been read.
    private(set) var header: FirebaseTakeoutHeader?
    private let csv: CSVReader

    /// The guide's 29 columns leave room for a few extra ones; a deep link with its query fits a field.
    init(maxColumns: Int = 64, maxFieldBytes: Int = 16 * 1024) {
        csv = CSVReader(maxColumns: maxColumns, maxFieldBytes: maxFieldBytes)
    }

    /// The rows `bytes`, the next part of the file, completed.
    func feed(_ bytes: some Collection<UInt8>) throws(FirebaseTakeoutError) -> [Entry] {
        let records: [[String]]
        do { records = try csv.feed(bytes) } catch { throw .csv(error) }
        return try entries(records)
    }

    /// Ends the file: the last row if no line break followed it.
    func finish() throws(FirebaseTakeoutError) -> [Entry] {
        let records: [[String]]
        do { records = try csv.finish() } catch { throw .csv(error) }
        return try entries(records)
    }

    private func entries(_ records: [[String]]) throws(FirebaseTakeoutError) -> [Entry] {
        var number = csv.recordsRead - records.count
        var entries: [Entry] = []
        for record in records {
            number += 1
            if header == nil {
                if FirebaseTakeoutHeader.isHeader(record) {
                    header = try FirebaseTakeoutHeader(record)
                    continue
                }
                header = .positional
            }
            // A line of empty cells (a spreadsheet's trailing rows) is no link.
            if record.allSatisfy({ $0.allSatisfy(\.isWhitespace) }) { continue }
            entries.append(Entry(row: number, outcome: FirebaseLinkRow.read(header!.cells(of: record))))
        }
        return entries
    }
}
