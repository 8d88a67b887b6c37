/// The JSON number grammar (RFC 8259 §6), for every reader of JSON text: the parser, and the one-pass reader of
/// stored rule definitions.
public enum JSONNumber {
    /// Where a number stops being one: a digit was expected and is not there.
    public enum Flaw: Error, Sendable {
        case integer, fraction, exponent

        /// What a reader reports.
        public var message: String {
            switch self {
            case .integer: "a digit was expected in a number"
            case .fraction: "a digit was expected after the decimal point"
            case .exponent: "a digit was expected in the exponent"
            }
        }
    }

    /// Moves `index` past the number that starts there (`-`, integer, fraction, exponent).
    /// - Throws: the flaw, with `index` at the byte where a digit was expected.
    @inlinable
    public static func scan<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at index: inout Bytes.Index) throws(Flaw) {
        func take(_ byte: UInt8) -> Bool {
            guard index < bytes.endIndex, bytes[index] == byte else { return false }
            bytes.formIndex(after: &index)
            return true
        }
        func digits() -> Bool {
            let start = index
            while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { bytes.formIndex(after: &index) }
            return index != start
        }
        _ = take(UInt8(ascii: "-"))
        guard take(UInt8(ascii: "0")) || digits() else { throw .integer }
        if take(UInt8(ascii: ".")), !digits() { throw .fraction }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() else { throw .exponent }
        }
    }
}
