/// Writes CSV (RFC 4180) records: fields separated by commas, records ended by CRLF, a field quoted (its quotes
/// doubled) when it holds a comma, a quote, a line break, or starts or ends with a space (which a reader that trims
/// would lose). What `CSVReader` reads back field for field. A field a spreadsheet would run as a formula is written
/// with a leading `'` (`CSVFormulaEscape`), in every CSV linkd writes.
enum CSVWriter {
    /// Appends one record of `fields` to `out`.
    static func append(_ fields: [String], to out: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let field = CSVFormulaEscape.neutralised(field)
            let bytes = field.utf8
            let quoted =
                bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
                || bytes.first == UInt8(ascii: " ") || bytes.last == UInt8(ascii: " ")
            guard quoted else {
                out.append(contentsOf: bytes)
                continue
            }
            out.append(UInt8(ascii: "\""))
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { out.append(byte) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(13)
        out.append(10)
    }
}
