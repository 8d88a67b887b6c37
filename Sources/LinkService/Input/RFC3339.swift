import Foundation

/// RFC 3339 `date-time`s (`2026-11-01T09:00:00.5+01:00`): the one reader of timestamps in requests and imported
/// files, and the one writer of the timestamps linkd answers with, both in the proleptic Gregorian calendar (as
/// PostgreSQL counts), so what is read is what is written back (docs/LINKS.md, "Dates and numbers").
///
/// Written by hand: Foundation's ISO 8601 parsers read `T25:00:00` or `-02-30` by rolling over into the next day or
/// month instead of refusing, and its formatters switch to the Julian calendar before 1582 (`0001-01-01` would come
/// back as `0001-01-03`).
enum RFC3339 {
    /// What reading a text gave.
    enum Reading: Equatable {
        /// An accepted instant, to the millisecond.
        case date(Date)
        /// Not a date-time with every field in range.
        case malformed
        /// A date-time outside `accepted`.
        case outOfRange
    }

    /// The instants linkd accepts, wherever a date enters: from the Unix epoch, so no date is ambiguous between the
    /// Julian and Gregorian calendars (nor negative as Unix time), to the last millisecond a four-digit year can write.
    static let accepted = Date(timeIntervalSince1970: 0)..<Date(timeIntervalSince1970: 253_402_300_800)
    /// `accepted` as a problem's detail says it.
    static let acceptedText = "from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"

    /// The instant `text` names when it is a date-time with every field in range and lies in `accepted`. Digits
    /// beyond the millisecond are dropped: linkd keeps timestamps to the millisecond, as JavaScript's `Date` does,
    /// and writes them so.
    /// - Parameter lenient: also reads the forms exported files write (Firebase's Takeout): a lower-case `t` or
    ///   `z`, a space for `T`, no zone (UTC), and a leap second (`:60`, read as `:59`). Without it, `T` and `Z`
    ///   are upper-case, the zone is required and a leap second is refused.
    static func read(_ text: String, lenient: Bool = false) -> Reading {
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
            (1...12).contains(month), hour < 24, minute < 60, second < (lenient ? 61 : 60)
        else { return .malformed }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...daysInMonth).contains(day) else { return .malformed }
        var index = 19
        var milliseconds = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                if index - start < 3 { milliseconds = milliseconds * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                index += 1
            }
            guard index > start else { return .malformed }
            for _ in min(index - start, 3)..<3 { milliseconds *= 10 }
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
                    hours < 24, minutes < 60
                else { return .malformed }
                offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
                index += 6
            default:
                return .malformed
            }
        } else if !lenient {
            return .malformed // the zone is required
        }
        guard index == bytes.count else { return .malformed }
        let seconds = Self.days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + min(second, 59) - offset
        // One division of an exact integer: the nearest double to the millisecond, which `string` gives back.
        let date = Date(timeIntervalSince1970: Double(seconds * 1000 + milliseconds) / 1000)
        return accepted.contains(date) ? .date(date) : .outOfRange
    }

    /// The instant `text` names, when it is an accepted date-time (`read` gives a `.date`).
    static func date(_ text: String, lenient: Bool = false) -> Date? {
        if case .date(let date) = read(text, lenient: lenient) { date } else { nil }
    }

    /// The problem's detail for `name` when its text did not read as an accepted date.
    static func refusal(_ name: String, _ reading: Reading, example: String = "2026-12-31T23:59:59Z") -> String {
        reading == .outOfRange ? "\(name) must lie \(acceptedText)." : "\(name) must be an RFC 3339 timestamp (\(example))."
    }

    /// `2026-11-29T13:30:13.042Z`: UTC, to the nearest millisecond, in the proleptic Gregorian calendar. Any date
    /// is written, for a row holding one outside `accepted`: a year beyond 0...9999 with a sign and six digits
    /// (ISO 8601's expanded form, as JavaScript's `toISOString` writes it; `0000` is 1 BC), and PostgreSQL's
    /// `infinity` and `-infinity` as those words.
    static func string(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        // Beyond any date PostgreSQL holds (and any `Int64` of milliseconds): only its infinities lie there.
        guard abs(interval) < 1e15 else { return interval > 0 ? "infinity" : "-infinity" }
        let total = Int64((interval * 1000).rounded())
        let (day, millisecond) = (total.floorDivided(by: 86_400_000), total.floorModulo(86_400_000))
        let (year, month, dayOfMonth) = civil(days: day)
        var text: [UInt8] = Array("-00-00T00:00:00.000Z".utf8)
        func put(_ value: Int64, at end: Int, width: Int = 2) {
            var rest = value
            for index in stride(from: end, to: end - width, by: -1) {
                text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(month, at: 2)
        put(dayOfMonth, at: 5)
        put(millisecond / 3_600_000, at: 8)
        put(millisecond / 60_000 % 60, at: 11)
        put(millisecond / 1000 % 60, at: 14)
        put(millisecond % 1000, at: 18, width: 3)
        let fourDigits = (0...9999).contains(year)
        let digits = String(year.magnitude)
        let sign = fourDigits ? "" : year < 0 ? "-" : "+"
        return sign + String(repeating: "0", count: max(0, (fourDigits ? 4 : 6) - digits.count)) + digits
            + String(decoding: text, as: UTF8.self)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian (year, month, day) of a day number since 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`); year 0 is 1 BC.
    static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

private extension Int64 {
    /// `self / divisor` rounded toward negative infinity (`divisor` > 0).
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return self % divisor < 0 ? quotient - 1 : quotient
    }

    /// `self` modulo `divisor`, from 0 up to `divisor` (`divisor` > 0).
    func floorModulo(_ divisor: Int64) -> Int64 {
        let rest = self % divisor
        return rest < 0 ? rest + divisor : rest
    }
}
