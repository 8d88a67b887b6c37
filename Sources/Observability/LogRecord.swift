import ByteText
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// One log line before it is formatted.
public struct LogRecord: Sendable {
    public let level: Logger.Level
    public let label: String
    public let message: String
    public let metadata: Logger.Metadata
    public let time: Date

    /// The record as one line of JSON: `{"time":…,"level":…,"logger":…,"message":…,<metadata>}`.
    /// Metadata keys are written sorted so lines are stable and greppable.
    public var jsonLine: String {
        var out = "{\"time\":"
        out.reserveCapacity(256)
        JSONString.append(Self.timestamp(time), to: &out)
        out += ",\"level\":"
        JSONString.append(level.name, to: &out)
        out += ",\"logger\":"
        JSONString.append(label, to: &out)
        out += ",\"message\":"
        JSONString.append(message, to: &out)
        for key in metadata.keys.sorted() {
            out += ","
            JSONString.append(key, to: &out)
            out += ":"
            JSONString.append(metadata[key]!, to: &out)
        }
        out += "}"
        return out
    }

    /// RFC 3339 UTC time with milliseconds (`2026-11-29T13:30:13.042Z`), the shape of Foundation's
    /// `ISO8601FormatStyle(includingFractionalSeconds: true)`, written by hand: the format style cost more than
    /// the rest of an access-log line.
    static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let seconds = interval.rounded(.down)
        var whole = time_t(seconds)
        var milliseconds = Int((interval - seconds) * 1000)
        if milliseconds > 999 { milliseconds = 999 }
        var parts = tm()
        gmtime_r(&whole, &parts)
        var text: [UInt8] = Array("0000-00-00T00:00:00.000Z".utf8)
        func put(_ value: Int, at end: Int, width: Int) {
            var rest = value
            for index in stride(from: end, to: end - width, by: -1) {
                text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(Int(parts.tm_year) + 1900, at: 3, width: 4)
        put(Int(parts.tm_mon) + 1, at: 6, width: 2)
        put(Int(parts.tm_mday), at: 9, width: 2)
        put(Int(parts.tm_hour), at: 12, width: 2)
        put(Int(parts.tm_min), at: 15, width: 2)
        put(Int(parts.tm_sec), at: 18, width: 2)
        put(milliseconds, at: 22, width: 3)
        return String(decoding: text, as: UTF8.self)
    }
}
