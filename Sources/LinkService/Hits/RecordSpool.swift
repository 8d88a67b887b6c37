import Foundation
import Glibc
import Observability

/// What a pipeline's spool holds (`RecordSpool`): a record written as one line and read back.
protocol SpoolRecord {
    /// The segment files' extension (`hits`, `events`).
    static var spoolExtension: String { get }
    /// Appends the record's line, without the newline (which it must not contain).
    func appendSpoolLine(to out: inout [UInt8])
    /// Reads a line `appendSpoolLine` wrote; nil when it is damaged (e.g. cut by a crash mid-write).
    init?(spoolLine: Substring)
}

/// The hit pipeline's spool (docs/HITS.md).
typealias HitSpool = RecordSpool<Hit>

/// The on-disk overflow of a pipeline's queue (hits, events) while the database is unavailable: numbered segment
/// files of spool lines (`SpoolRecord.appendSpoolLine`), appended at the newest, replayed from the oldest, so records
/// reach the database in the order they were accepted.
///
/// Replay progress is kept in `<segment>.progress` (lines already committed), written after each
/// committed batch: a crash between a commit and that write replays at most one batch twice.
/// The directory is locked (`flock`) for the life of the process so two processes never share it.
///
/// `@unchecked Sendable`: it owns file descriptors and mutable bookkeeping, and is used by one thread at
/// a time: `RecordQueue.init`, then only the writer thread.
final class RecordSpool<Record: SpoolRecord>: @unchecked Sendable {
    let directory: URL
    private let segmentSize: Int
    private let logger: Logger
    private var lockDescriptor: Int32 = -1
    /// Segment numbers on disk, oldest first.
    private var segments: [Int] = []
    /// Lines per segment still to replay.
    private var remaining: [Int: Int] = [:]
    private var writing: (number: Int, descriptor: Int32, lines: Int)?
    private var reading: (number: Int, lines: [Substring], offset: Int)?

    /// Opens (creating it when missing) and locks the spool directory, and counts what an earlier process left.
    /// - Throws: `HitPipelineError` when the directory cannot be created or another process holds it.
    init(directory: URL, segmentSize: Int, logger: Logger) throws {
        self.directory = directory
        self.segmentSize = segmentSize
        self.logger = logger
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw HitPipelineError("cannot create the spool directory \(directory.path): \(error.localizedDescription)")
        }
        lockDescriptor = open(directory.appendingPathComponent("spool.lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        // flock(2): "LOCK_NB: Return an error instead of blocking"; the lock goes with the descriptor at exit.
        guard lockDescriptor >= 0, flock(lockDescriptor, LOCK_EX | LOCK_NB) == 0 else {
            throw HitPipelineError("the spool directory \(directory.path) is in use by another process")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        segments = names.compactMap { name in
            guard name.hasPrefix("segment-"), name.hasSuffix(".\(Record.spoolExtension)") else { return nil }
            return Int(name.dropFirst(8).dropLast(Record.spoolExtension.count + 1))
        }.sorted()
        for number in segments {
            let lines = (try? Self.readLines(url(number))) ?? []
            remaining[number] = max(0, lines.count - progress(number))
        }
    }

    deinit {
        if let writing { close(writing.descriptor) }
        if lockDescriptor >= 0 { close(lockDescriptor) }
    }

    /// Records waiting in the spool.
    var count: Int { remaining.values.reduce(0, +) }
    var isEmpty: Bool { segments.isEmpty }

    /// Whether a new segment could be written now: creates, syncs and removes a small file in the directory.
    /// - Throws: `HitPipelineError` saying why not (the directory gone, read-only, the disk full).
    func checkWritable() throws {
        let url = directory.appendingPathComponent("spool.check")
        let descriptor = open(url.path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw HitPipelineError("cannot create a file in the spool: \(String(cString: strerror(errno)))") }
        defer {
            close(descriptor)
            unlink(url.path)
        }
        try write([10], to: descriptor)
        guard fsync(descriptor) == 0 else { throw HitPipelineError("fsync in the spool failed: \(String(cString: strerror(errno)))") }
    }

    /// Appends `records` after everything already spooled, and syncs them to disk.
    /// - Throws: `HitPipelineError` when writing fails (e.g. disk full); nothing is then counted as spooled
    ///   (a partial line is skipped when read back).
    func append(_ records: some Collection<Record>) throws {
        var pending = records[...]
        while !pending.isEmpty {
            if writing == nil || writing!.lines >= segmentSize { try startSegment() }
            let room = segmentSize - writing!.lines
            let chunk = pending.prefix(room)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(chunk.count * 256)
            for record in chunk {
                record.appendSpoolLine(to: &bytes)
                bytes.append(10)
            }
            try write(bytes, to: writing!.descriptor)
            // fsync(2): the records were acknowledged to the request side; they must survive a crash.
            guard fsync(writing!.descriptor) == 0 else {
                throw HitPipelineError("fsync of the spool failed: \(String(cString: strerror(errno)))")
            }
            writing!.lines += chunk.count
            remaining[writing!.number, default: 0] += chunk.count
            pending = pending.dropFirst(chunk.count)
        }
    }

    /// The oldest spooled records, at most `limit`, without consuming them (see `consume`); nil when empty.
    /// Damaged lines (cut by a crash) are skipped and logged.
    func peek(limit: Int) throws -> [Record]? {
        while true {
            guard let oldest = segments.first else { return nil }
            if reading == nil || reading!.number != oldest {
                if writing?.number == oldest { closeWriting() } // seal it: later appends go to a new segment
                let lines = try Self.readLines(url(oldest))
                reading = (oldest, lines, min(progress(oldest), lines.count))
            }
            if reading!.offset >= reading!.lines.count {
                removeSegment(oldest)
                continue
            }
            var records: [Record] = []
            var index = reading!.offset
            while records.count < limit, index < reading!.lines.count {
                if let record = Record(spoolLine: reading!.lines[index]) {
                    records.append(record)
                } else {
                    logger.warning("skipping a damaged spool line", metadata: ["spool.segment": "\(oldest)", "spool.line": "\(index)"])
                    reading!.lines[index] = "" // logged once; still counted as a line for the offset
                }
                index += 1
            }
            if records.isEmpty {
                reading!.offset = index
                try saveProgress()
                continue
            }
            return records
        }
    }

    /// Marks the records `peek` returned as written: advances past `count` valid lines.
    func consume(_ count: Int) throws {
        guard var current = reading else { return }
        var left = count
        while left > 0, current.offset < current.lines.count {
            if !current.lines[current.offset].isEmpty { left -= 1 }
            current.offset += 1
        }
        reading = current
        remaining[current.number] = max(0, (remaining[current.number] ?? 0) - count)
        if current.offset >= current.lines.count {
            removeSegment(current.number)
        } else {
            try saveProgress()
        }
    }

    /// Deletes the directory when nothing is spooled (for the temporary spool of an unconfigured pipeline).
    func removeDirectoryIfEmpty() {
        guard segments.isEmpty else { return }
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Files

    private func url(_ number: Int) -> URL {
        directory.appendingPathComponent(String(format: "segment-%012d.", number) + Record.spoolExtension)
    }
    private func progressURL(_ number: Int) -> URL { directory.appendingPathComponent(String(format: "segment-%012d.progress", number)) }

    private func progress(_ number: Int) -> Int {
        (try? String(contentsOf: progressURL(number), encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            ?? 0
    }

    private func saveProgress() throws {
        guard let reading else { return }
        do {
            try Data("\(reading.offset)\n".utf8).write(to: progressURL(reading.number), options: .atomic)
        } catch {
            throw HitPipelineError("cannot record spool progress: \(error.localizedDescription)")
        }
    }

    private func startSegment() throws {
        closeWriting()
        let number = (segments.last ?? 0) + 1
        let descriptor = open(url(number).path, O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw HitPipelineError("cannot create a spool segment: \(String(cString: strerror(errno)))") }
        segments.append(number)
        remaining[number] = 0
        writing = (number, descriptor, 0)
    }

    private func closeWriting() {
        if let writing { close(writing.descriptor) }
        writing = nil
    }

    private func removeSegment(_ number: Int) {
        if writing?.number == number { closeWriting() }
        if reading?.number == number { reading = nil }
        try? FileManager.default.removeItem(at: url(number))
        try? FileManager.default.removeItem(at: progressURL(number))
        segments.removeAll { $0 == number }
        remaining[number] = nil
    }

    private func write(_ bytes: [UInt8], to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw HitPipelineError("writing the spool failed: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    private static func readLines(_ url: URL) throws -> [Substring] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw HitPipelineError("cannot read \(url.path): \(error.localizedDescription)") }
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { Substring($0) }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }
}
