import Foundation

/// Fast `timestamptz` text for COPY: Foundation's formatters cost microseconds per call, this is the
/// hot loop of the writer.
enum TimestampText {
    /// `YYYY-MM-DD HH:MM:SS.ffffff+00`.
    static func utc(micros: Int64) -> String {
        let seconds = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
        let fraction = micros - seconds * 1_000_000
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(days: days)
        var bytes = [UInt8](repeating: 0, count: 29)
        func put(_ value: Int64, at offset: Int, width: Int) {
            var value = value
            for index in stride(from: offset + width - 1, through: offset, by: -1) {
                bytes[index] = UInt8(48 + value % 10)
                value /= 10
            }
        }
        put(year, at: 0, width: 4); bytes[4] = 45
        put(month, at: 5, width: 2); bytes[7] = 45
        put(day, at: 8, width: 2); bytes[10] = 32
        put(secondOfDay / 3600, at: 11, width: 2); bytes[13] = 58
        put(secondOfDay / 60 % 60, at: 14, width: 2); bytes[16] = 58
        put(secondOfDay % 60, at: 17, width: 2); bytes[19] = 46
        put(fraction, at: 20, width: 6)
        bytes[26] = 43; bytes[27] = 48; bytes[28] = 48
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar (H. Hinnant's
    /// `civil_from_days`).
    static func civil(days: Int64) -> (Int64, Int64, Int64) {
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

    /// `YYYY-MM-DD` of a UTC day number.
    static func date(day: Int64) -> String {
        let (year, month, dayOfMonth) = civil(days: day)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(dayOfMonth, 2))"
    }
}
