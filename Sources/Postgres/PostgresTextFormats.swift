import ByteText
import Foundation

/// Array literals in PostgreSQL's text format (`array_in` / `array_out`), one dimension.
enum PostgresArrayLiteral {
    /// `{"a","b \"c\""}`: every element double-quoted, `"` and `\` backslash-escaped.
    static func format<T: PostgresEncodable>(_ elements: [T]) -> String {
        // Built as UTF-8 bytes: `"` and `\` are ASCII, never part of a multi-byte sequence.
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(16 * elements.count + 2)
        for (index, element) in elements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard var text = element.postgresText else { out.append(contentsOf: "NULL".utf8); continue }
            // array_in: "you can put double quotes around any element value, and must do so if it contains
            // commas or curly braces [...] To put a double quote or backslash in a quoted array element value,
            // precede it with a backslash."
            out.append(quote)
            text.withUTF8 { bytes in
                // Nearly every element has nothing to escape: copied in one go.
                guard bytes.contains(where: { $0 == quote || $0 == backslash }) else { return out.append(contentsOf: bytes) }
                for byte in bytes {
                    if byte == quote || byte == backslash { out.append(backslash) }
                    out.append(byte)
                }
            }
            out.append(quote)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses `{a,"b c",NULL}` into elements, nil for an unquoted NULL. Only one-dimensional arrays.
    ///
    /// Works on UTF-8 bytes: every structural character is ASCII and never part of a multi-byte sequence,
    /// so elements are sliced out as byte ranges (the catalog load decodes one array per rule).
    static func parse(_ text: String) throws(PostgresError) -> [String?] {
        let all = Array(text.utf8)
        var start = 0
        var end = all.count
        // array_out prefixes explicit bounds ("[0:1]={...}") only when the lower bound is not 1.
        if all.first == UInt8(ascii: "["), let equals = all.firstIndex(of: UInt8(ascii: "=")) { start = equals + 1 }
        guard start < end, all[start] == UInt8(ascii: "{"), all[end - 1] == UInt8(ascii: "}"), end - start >= 2 else { throw invalid() }
        start += 1
        end -= 1
        var elements: [String?] = []
        if start == end { return elements }
        var index = start
        var element: [UInt8] = []
        while true {
            element.removeAll(keepingCapacity: true)
            var quoted = false
            if index < end, all[index] == UInt8(ascii: "{") { throw invalid() } // nested dimension
            if index < end, all[index] == UInt8(ascii: "\"") {
                quoted = true
                index += 1
                while true {
                    guard index < end else { throw invalid() }
                    let byte = all[index]
                    index += 1
                    if byte == UInt8(ascii: "\"") { break }
                    if byte == UInt8(ascii: "\\") {
                        guard index < end else { throw invalid() }
                        element.append(all[index])
                        index += 1
                    } else {
                        element.append(byte)
                    }
                }
            } else {
                while index < end, all[index] != UInt8(ascii: ",") {
                    if all[index] == UInt8(ascii: "\\") {
                        index += 1
                        guard index < end else { throw invalid() }
                    }
                    element.append(all[index])
                    index += 1
                }
            }
            let value = String(decoding: element, as: UTF8.self)
            elements.append(!quoted && value.uppercased() == "NULL" ? nil : value)
            if index == end { break }
            guard all[index] == UInt8(ascii: ",") else { throw invalid() }
            index += 1
        }
        return elements
    }

    private static func invalid() -> PostgresError {
        PostgresError(.decodingFailed, serverMessage: "malformed array literal")
    }
}

/// `bytea` in hex format (`\x` then two hex digits per byte), the server's default `bytea_output`.
enum PostgresBytea {
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(2 + bytes.count * 2)
        out.append(UInt8(ascii: "\\"))
        out.append(UInt8(ascii: "x"))
        Hex.append(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func parse(_ text: String) throws(PostgresError) -> [UInt8] {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            throw PostgresError(.decodingFailed, serverMessage: "bytea is not in hex format")
        }
        var out = [UInt8]()
        out.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = Hex.value(utf8[index]), let low = Hex.value(utf8[index + 1]) else {
                throw PostgresError(.decodingFailed, serverMessage: "bad hex digit in bytea")
            }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}

/// `timestamptz` text with `DateStyle=ISO` and `TimeZone=UTC` (set on every connection):
/// `2026-11-29 13:01:02.123456+00`; `timestamp` the same without the offset; `date` as `2026-11-29`. Every value
/// the server sends is read, in the proleptic Gregorian calendar as the server counts (glibc's `timegm` and
/// `gmtime_r` count so too): years before 1 with ` BC` (`0001-01-01 00:00:00+00 BC` is year 0), years beyond 9999,
/// and `infinity` and `-infinity`, read as a `Date` that far (`timeIntervalSince1970` is `±.infinity`).
enum PostgresTimestamp {
    static func format(_ date: Date) -> String {
        // PostgreSQL's "Date/Time Types": `infinity` is "later than all other time stamps", `-infinity` "earlier
        // than all other time stamps"; no other value lies beyond 294276 AD, the server's last year.
        let interval = date.timeIntervalSince1970
        guard abs(interval) < 1e13 else { return interval > 0 ? "infinity" : "-infinity" }
        // Whole seconds, then the fraction's microseconds: the microseconds of the whole would not fit an Int64
        // near the server's last year.
        var seconds = Int64(interval.rounded(.down))
        var fraction = Int64(((interval - Double(seconds)) * 1_000_000).rounded())
        if fraction == 1_000_000 { fraction = 0; seconds += 1 }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let year = Int(parts.tm_year) + 1900
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var out = year < 1 ? pad(1 - year, 4) : pad(year, 4)
        out += "-" + pad(Int(parts.tm_mon) + 1, 2) + "-" + pad(Int(parts.tm_mday), 2)
        out += " " + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2)
        out += "." + pad(Int(fraction), 6) + "+00"
        if year < 1 { out += " BC" }
        return out
    }

    static func parse(_ text: String) throws(PostgresError) -> Date {
        switch text {
        case "infinity": return Date(timeIntervalSince1970: .infinity)
        case "-infinity": return Date(timeIntervalSince1970: -.infinity)
        default: break
        }
        var bytes = Array(text.utf8)
        let beforeChrist = bytes.count > 3 && bytes.suffix(3).elementsEqual(" BC".utf8)
        if beforeChrist { bytes.removeLast(3) }
        var index = 0
        func number(maxDigits: Int = 10) -> Int? {
            var value = 0, count = 0
            while index < bytes.count, count < maxDigits, bytes[index] >= 48, bytes[index] <= 57 {
                value = value * 10 + Int(bytes[index] - 48)
                index += 1; count += 1
            }
            return count == 0 ? nil : value
        }
        func expect(_ c: Character) -> Bool {
            guard index < bytes.count, bytes[index] == c.asciiValue! else { return false }
            index += 1
            return true
        }
        let failure = PostgresError(.decodingFailed, serverMessage: "unsupported timestamp format")
        guard let year = number(), expect("-"), let month = number(maxDigits: 2), expect("-"),
            let day = number(maxDigits: 2)
        else { throw failure }
        var hour = 0, minute = 0, second = 0, micros = 0, offset = 0
        if expect(" ") || expect("T") {
            guard let h = number(maxDigits: 2), expect(":"), let m = number(maxDigits: 2), expect(":"),
                let s = number(maxDigits: 2)
            else { throw failure }
            (hour, minute, second) = (h, m, s)
            if expect(".") {
                let start = index
                guard let f = number(maxDigits: 6) else { throw failure }
                micros = f
                for _ in 0..<(6 - (index - start)) { micros *= 10 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let oh = number(maxDigits: 2) else { throw failure }
                var seconds = oh * 3600
                if expect(":") { guard let om = number(maxDigits: 2) else { throw failure }; seconds += om * 60 }
                if expect(":") { guard let os = number(maxDigits: 2) else { throw failure }; seconds += os }
                offset = sign * seconds
            }
        }
        guard index == bytes.count else { throw failure } // other date styles than ISO are not decoded
        var parts = tm()
        parts.tm_year = Int32((beforeChrist ? 1 - year : year) - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = Int64(timegm(&parts)) - Int64(offset)
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }
}
