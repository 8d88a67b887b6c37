import Foundation

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

    /// RFC 3339 UTC time with milliseconds.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
