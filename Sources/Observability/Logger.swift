import Foundation

/// A small structured logger shaped like swift-log's `Logger`: a value, passed explicitly, that writes
/// one JSON object a line to a `LogSink` (standard error by default).
///
/// swift-log cannot be fetched here; keeping the same call shape (`logger.info("msg", metadata: [...])`)
/// means it could be swapped in later without touching call sites.
public struct Logger: Sendable {
    /// Severity, lowest first.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical

        /// The lower-case name used in configuration and in log lines.
        public var name: String {
            switch self {
            case .trace: "trace"
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            case .critical: "critical"
            }
        }

        /// Parses a level name (`LINKD_LOG_LEVEL`), case-insensitively.
        public init?(name: String) {
            guard let level = Level.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
            self = level
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Log metadata: dotted keys (`request.id`, `db.sqlstate`) to string values.
    public typealias Metadata = [String: String]

    /// The label names the component that logs (`linkd.http`, `linkd.hits`).
    public let label: String
    /// Messages below this level are dropped before they are formatted.
    public var logLevel: Level
    /// Metadata added to every line this logger writes.
    public var metadata: Metadata
    private let sink: LogSink

    /// Creates a logger.
    /// - Parameters:
    ///   - label: the component name written as `logger` in each line.
    ///   - level: the minimum level written.
    ///   - sink: where lines go; standard error unless a test captures them.
    public init(label: String, level: Level = .info, sink: LogSink = .standardError) {
        self.label = label
        self.logLevel = level
        self.metadata = [:]
        self.sink = sink
    }

    /// A copy with another label and the same level, sink and metadata.
    public func with(label: String) -> Logger {
        var copy = Logger(label: label, level: logLevel, sink: sink)
        copy.metadata = metadata
        return copy
    }

    /// Writes `message` at `level` with `metadata` merged over the logger's own.
    public func log(level: Level, _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        guard level >= logLevel else { return }
        var fields = metadata()
        if !self.metadata.isEmpty {
            fields.merge(self.metadata, uniquingKeysWith: { new, _ in new }) // the call's metadata wins
        }
        sink.write(LogRecord(level: level, label: label, message: message(), metadata: fields, time: Date()))
    }

    public func trace(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(level: .trace, message(), metadata: metadata())
    }
    public func debug(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(level: .debug, message(), metadata: metadata())
    }
    public func info(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(level: .info, message(), metadata: metadata())
    }
    public func notice(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(level: .notice, message(), metadata: metadata())
    }
    public func warning(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(level: .warning, message(), metadata: metadata())
    }
    public func error(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(level: .error, message(), metadata: metadata())
    }
    public func critical(_ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:]) {
        log(level: .critical, message(), metadata: metadata())
    }
}
