import Foundation

/// HTTP dates (RFC 9110 §5.6.7): written as IMF-fixdate, read in any of the three allowed forms.
enum HTTPDate {
    /// `Sun, 06 Nov 1994 08:49:37 GMT`. Written by hand: a `DateFormatter` per call cost more than the rest
    /// of a catalog entry's documents.
    static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let day = days[Int(parts.tm_wday)]
        let month = months[Int(parts.tm_mon)]
        let year = String(Int(parts.tm_year) + 1900)
        let yearText = String(repeating: "0", count: max(0, 4 - year.count)) + year
        return "\(day), \(two(parts.tm_mday)) \(month) \(yearText) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func parse(_ text: String) -> Date? {
        for format in [DateFormat.imf, DateFormat.rfc850, DateFormat.asctime] {
            if let date = formatter(format).date(from: text.trimmingCharacters(in: .whitespaces)) { return date }
        }
        return nil
    }

    private enum DateFormat {
        static let imf = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        static let rfc850 = "EEEE, dd-MMM-yy HH:mm:ss 'GMT'"
        static let asctime = "EEE MMM d HH:mm:ss yyyy"
    }

    /// DateFormatter is not thread-safe to share; one per call is cheap enough for headers that are parsed
    /// rarely (conditional requests) and formatted once per catalog entry.
    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
