import Foundation
import Synchronization

/// Where log records go. Standard error in production; an in-memory buffer in tests.
public struct LogSink: Sendable {
    private let writeRecord: @Sendable (LogRecord) -> Void

    /// A sink that calls `write` for every record; `write` must be thread-safe.
    public init(_ write: @escaping @Sendable (LogRecord) -> Void) {
        self.writeRecord = write
    }

    func write(_ record: LogRecord) { writeRecord(record) }

    /// One JSON line per record on standard error. A single `write(2)` per line keeps lines whole
    /// when several threads log at once.
    public static let standardError = LogSink { record in
        var line = record.jsonLine
        line += "\n"
        line.withUTF8 { buffer in
            _ = Foundation.write(2, buffer.baseAddress, buffer.count)
        }
    }

    /// Discards everything.
    public static let discard = LogSink { _ in }
}

/// Keeps records in memory, for tests that assert on what was logged.
public final class InMemoryLogSink: Sendable {
    private let records = Mutex<[LogRecord]>([])

    public init() {}

    /// The sink to hand to a `Logger`.
    public var sink: LogSink { LogSink { [self] record in records.withLock { $0.append(record) } } }

    /// Everything written so far.
    public var entries: [LogRecord] { records.withLock { $0 } }
}
