import Foundation

/// Reads RFC 3339 `date-time`s (`2026-11-01T09:00:00.5+01:00`), every field in range: Foundation's ISO 8601
/// parsers read `T25:00:00` or `-02-30` by rolling over into the next day or month instead of refusing, and what
/// they would roll over to is not what was asked. The one reader of timestamps in requests and imported files.
enum RFC3339 {
    /// The instant `text` names, or nil when it is not a date-time with every field in range.
    /// - Parameter lenient: also reads the forms exported files write (Firebase's Takeout): a lower-case `t` or
    ///   `z`, a space for `T`, no zone (UTC), and a leap second (`:60`, read as `:59`). Without it, `T` and `Z`
    ///   are upper-case, the zone is required and a leap second is refused.
    static func date(_ text: String, lenient: Bool = false) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<from + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators = lenient ? [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")] : [UInt8(ascii: "T")]
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), separators.contains(bytes[10]),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), hour < 24, minute < 60, second < (lenient ? 61 : 60) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > start, let digits = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) else { return nil }
            fraction = digits
        }
        var offset = 0
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "Z"):
                index += 1
            case UInt8(ascii: "z") where lenient:
                index += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard index + 6 == bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                      let hours = number(index + 1, 2), let minutes = number(index + 4, 2),
                      hours < 24, minutes < 60 else { return nil }
                offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
                index += 6
            default:
                return nil
            }
        } else if !lenient {
            return nil   // the zone is required
        }
        guard index == bytes.count else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let epochDays = era * 146_097 + dayOfEra - 719_468
        let seconds = epochDays * 86_400 + hour * 3_600 + minute * 60 + min(second, 59) - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
