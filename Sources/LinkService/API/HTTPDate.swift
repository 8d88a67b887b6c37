import Foundation

/// HTTP dates (RFC 9110 §5.6.7): written as IMF-fixdate, read in any of the three allowed forms.
enum HTTPDate {
    static func format(_ date: Date) -> String {
        formatter(DateFormat.imf).string(from: date)
    }

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
