/// Keeps spreadsheets from running what a CSV cell holds (OWASP "CSV Injection"): a cell that starts with `=`, `+`,
/// `-`, `@`, a tab or a carriage return is read as a formula by Excel, LibreOffice and Google Sheets, so every cell
/// linkd writes (`CSVWriter`) is prefixed with a single quote `'` when it starts with one of them, and the links file
/// it reads back (`LinkCSV`) takes that quote off again.
///
/// The escape is reversible without ambiguity: a cell needs the quote when it starts with a trigger, or when it
/// starts with `'` followed by a cell that needs it (`'=x` is written `''=x`, so that reading `'=x` gives `=x`
/// only when `=x` was written). Reading strips one leading `'` exactly when what follows needs it, so
/// `restored(neutralised(v)) == v` for every text `v`, and a file written by hand without quotes reads as written.
enum CSVFormulaEscape {
    /// The first bytes that make a spreadsheet read a cell as a formula.
    static let triggers: [UInt8] = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D]

    /// `cell` as it is written: with a leading `'` when a spreadsheet would run it (or when reading would take a
    /// quote of its own for an escape).
    static func neutralised(_ cell: String) -> String {
        needsQuote(cell.utf8[...]) ? "'" + cell : cell
    }

    /// The text of a cell `neutralised` wrote: without its leading `'` when what follows needs one.
    static func restored(_ cell: String) -> String {
        let bytes = cell.utf8
        guard bytes.first == UInt8(ascii: "'"), needsQuote(bytes.dropFirst()) else { return cell }
        return String(cell.dropFirst())
    }

    /// Whether `bytes` start with a trigger, after any number of `'`.
    private static func needsQuote(_ bytes: Substring.UTF8View) -> Bool {
        guard let first = bytes.first(where: { $0 != UInt8(ascii: "'") }) else { return false }
        return triggers.contains(first)
    }
}
