import Foundation

/// Which column of a Takeout file holds which field, read from its header row (docs/LINKS-IMPORT.md): a cell is
/// matched by the FDL parameter in its parentheses where it has one, else by its name, else by its position in
/// the guide's order. Columns it cannot place are ignored and listed; optional fields without a column read as
/// absent; the short link and the deep link must have one.
struct FirebaseTakeoutHeader: Equatable, Sendable {
    /// A header cell that names no field, or a field another cell already named: its column is not read.
    struct IgnoredColumn: Equatable, Sendable {
        /// 1-based.
        let column: Int
        let name: String
    }

    /// The 0-based column of each field that has one.
    let columns: [FirebaseTakeoutField: Int]
    let ignored: [IgnoredColumn]

    /// Fields without a column, in the guide's order.
    var missing: [FirebaseTakeoutField] { FirebaseTakeoutField.allCases.filter { columns[$0] == nil } }

    /// The guide's columns in its order: a file without a header row.
    static let positional = FirebaseTakeoutHeader(
        columns: Dictionary(uniqueKeysWithValues: FirebaseTakeoutField.allCases.map { ($0, $0.rawValue) }), ignored: [])

    private init(columns: [FirebaseTakeoutField: Int], ignored: [IgnoredColumn]) {
        self.columns = columns
        self.ignored = ignored
    }

    /// Reads a header row; throws when no column holds the short link or the deep link.
    init(_ cells: [String]) throws(FirebaseTakeoutError) {
        var columns: [FirebaseTakeoutField: Int] = [:]
        var ignored: [IgnoredColumn] = []
        var unnamed: [Int] = []
        // Named cells first, so that a named column is not taken by an unnamed one's position.
        for (index, cell) in cells.enumerated() {
            switch FirebaseTakeoutField.named(cell) {
            case .field(let field) where columns[field] == nil: columns[field] = index
            case .field, .unknown: ignored.append(IgnoredColumn(column: index + 1, name: cell))
            case .unnamed: unnamed.append(index)
            }
        }
        for index in unnamed {
            if let field = FirebaseTakeoutField(rawValue: index), columns[field] == nil {
                columns[field] = index
            } else if !cells[index].isEmpty || index < FirebaseTakeoutField.allCases.count {
                ignored.append(IgnoredColumn(column: index + 1, name: cells[index]))
            }
        }
        for required in [FirebaseTakeoutField.shortLink, .link] where columns[required] == nil {
            throw .missingColumn(required.name)
        }
        self.init(columns: columns, ignored: ignored.sorted { $0.column < $1.column })
    }

    /// Whether `cells`, the first record of a file, is a header rather than a link: a Takeout row starts with its
    /// short link, an https URL; a header does not.
    static func isHeader(_ cells: [String]) -> Bool {
        guard let first = cells.first?.trimmingCharacters(in: .whitespaces).lowercased() else { return true }
        return !(first.hasPrefix("https://") || first.hasPrefix("http://"))
    }

    /// The fields of one data row: each cell under the column of a field, the empty string for a cell the row
    /// lacks (a row shorter than the header). Cells past the header's last column are ignored.
    func cells(of row: [String]) -> [FirebaseTakeoutField: String] {
        var cells: [FirebaseTakeoutField: String] = [:]
        for (field, column) in columns {
            cells[field] = column < row.count ? row[column] : ""
        }
        return cells
    }
}

/// Why a Takeout file cannot be read at all (a row's own problems are `FirebaseRowProblem`s).
enum FirebaseTakeoutError: Error, Equatable, CustomStringConvertible {
    case csv(CSVError)
    /// The header has no column for this required field.
    case missingColumn(String)

    var description: String {
        switch self {
        case .csv(let error): error.description
        case .missingColumn(let name): "the header has no \(name) column"
        }
    }
}
