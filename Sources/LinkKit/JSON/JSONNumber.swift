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

    /// The text of the number that starts at `index`, which is moved past it.
    /// - Throws: as `scan`.
    @inlinable
    public static func text<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at index: inout Bytes.Index) throws(Flaw) -> String {
        let start = index
        try scan(bytes, at: &index)
        return String(decoding: bytes[start..<index], as: UTF8.self)
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
            while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                bytes.formIndex(after: &index)
            }
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

    /// The largest exponent, and the most digits after the decimal point once the exponent applies, of a number
    /// in range: PostgreSQL's `numeric` (`NUMERIC_DSCALE_MAX`), what `jsonb` stores numbers as.
    public static let maxScale = 16_383

    /// Whether the number `text` (one `scan` accepts) is in the range linkd accepts: at most the largest IEEE 754
    /// double (1.7976931348623157e308) in magnitude, so that JavaScript and the other readers of doubles get a
    /// number and not an infinity (RFC 8259 §6); and held exactly by PostgreSQL's `numeric`: an exponent of at
    /// most `maxScale` either way and at most `maxScale` digits after the decimal point once it applies (`1e-400`
    /// is in range, `0.0e-99999` is not). Precision is not bounded: such a number is kept as written.
    public static func isInRange(_ text: some StringProtocol) -> Bool {
        var integerDigits = 0, fractionDigits = 0, exponent = 0, negativeExponent = false
        var part = 0 // 0: integer, 1: fraction, 2: exponent
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                switch part {
                case 0: integerDigits += 1
                case 1: fractionDigits += 1
                default: exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), maxScale + 1)
                }
            case UInt8(ascii: "."): part = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"): part = 2
            case UInt8(ascii: "-") where part == 2: negativeExponent = true
            default: break
            }
        }
        guard exponent <= maxScale else { return false }
        if negativeExponent { exponent = -exponent }
        guard fractionDigits - exponent <= maxScale else { return false }
        // Below 1e308 by its digits alone; past that, as a double reads it.
        return integerDigits + exponent <= 308 || Double(String(text))?.isFinite == true
    }
}
