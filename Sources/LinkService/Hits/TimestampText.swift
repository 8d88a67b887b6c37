import Foundation

/// UTC calendar days as text (partition names and bounds) without Foundation's calendars and formatters.
enum TimestampText {
    /// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar, as `RFC3339` counts.
    static func civil(days: Int64) -> (Int64, Int64, Int64) {
        RFC3339.civil(days: days)
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
