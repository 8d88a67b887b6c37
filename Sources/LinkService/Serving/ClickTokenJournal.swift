import ByteText
import Foundation
import Glibc
import Synchronization

/// The click tokens issued and not yet known to be stored, on disk (docs/LANDING.md, "Deferred deep links"): each
/// token's row is appended to its stripe's journal file with `write(2)` before its page is handed to the HTTP
/// layer, so a process that crashes or is killed loses no token it handed out: the next start stores what the files
/// hold. A row is the line `COPY click_tokens … FROM STDIN` takes (`ClickTokenStore.columns`), so the writer sends
/// the rows as they were journaled.
///
/// Each stripe appends to a file of its own; the writer swaps in a new file as it takes the stripe's rows, and
/// removes the old one once those rows are committed. No `fsync`: the kernel keeps what was written when the
/// process dies; a machine that loses power may lose what the last flush had not committed.
final class ClickTokenJournal: Sendable {
    /// One journal file, open for appending; closed when the last holder lets go of it.
    final class File: Sendable {
        let path: String
        private let descriptor: Int32

        fileprivate init(path: String, descriptor: Int32) {
            self.path = path
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        /// Appends `line`; false when the whole line could not be written.
        func append(_ line: [UInt8]) -> Bool {
            line.withUnsafeBytes { bytes in
                var done = 0
                while done < bytes.count {
                    // write(2) on a regular file writes all of it unless the disk is full or a signal interrupts it.
                    let written = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { return false }
                    done += written
                }
                return true
            }
        }
    }

    let directory: URL
    private let sequence: Atomic<Int>

    /// Opens `directory` (creating it): the files left there by an earlier process are `leftovers()`, new files are
    /// numbered after them.
    /// - Throws: when the directory cannot be created.
    init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        sequence = Atomic(Self.numbers(in: directory).max() ?? 0)
    }

    /// A new, empty journal file.
    func create() -> File? {
        let number = sequence.add(1, ordering: .relaxed).newValue
        let path = directory.appendingPathComponent(String(format: "tokens-%012d.journal", number)).path
        let descriptor = open(path, O_CREAT | O_WRONLY | O_APPEND | O_CLOEXEC, 0o600)
        return descriptor < 0 ? nil : File(path: path, descriptor: descriptor)
    }

    /// The files an earlier process left, and their whole rows (a line cut short by a full disk is left out).
    func leftovers() -> (paths: [String], rows: [[UInt8]]) {
        var paths: [String] = []
        var rows: [[UInt8]] = []
        for number in Self.numbers(in: directory).sorted() {
            let path = directory.appendingPathComponent(String(format: "tokens-%012d.journal", number)).path
            paths.append(path)
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            for line in data.split(separator: 10, omittingEmptySubsequences: true) where Self.isRow(line) {
                rows.append(Array(line) + [10])
            }
        }
        return (paths, rows)
    }

    /// Removes journal files whose rows are stored.
    func remove(_ paths: [String]) {
        for path in paths { unlink(path) }
    }

    private static func numbers(in directory: URL) -> [Int] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).compactMap { name in
            guard name.hasPrefix("tokens-"), name.hasSuffix(".journal") else { return nil }
            return Int(name.dropFirst(7).dropLast(8))
        }
    }

    /// Whether `line` (without its newline) is a whole row: ten fields, a hash of 64 hex digits, two UUIDs, a
    /// platform, an answer object, the click's country (two letters or `\N`) and OS (`\N` or not empty), and two
    /// timestamps (last, of a fixed length: a cut line is not one).
    static func isRow(_ line: some BidirectionalCollection<UInt8>) -> Bool {
        let fields = line.split(separator: 9, omittingEmptySubsequences: false)
        guard fields.count == 10 else { return false }
        let hex = fields[0].allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        return fields[0].count == 64 && hex && fields[1].count == 36 && fields[2].count == 36 && !fields[3].isEmpty
            && (fields[4].elementsEqual("android".utf8) || fields[4].elementsEqual("ios".utf8))
            && fields[5].first == UInt8(ascii: "{") && fields[5].last == UInt8(ascii: "}")
            && (fields[6].count == 2 || fields[6].elementsEqual(#"\N"#.utf8)) && !fields[7].isEmpty
            && fields[8].count == ClickTokenJournal.timestampLength && fields[9].count == ClickTokenJournal.timestampLength
    }

    /// `YYYY-MM-DD HH:MM:SS.ffffff+00`: a time as `COPY` reads a `timestamptz`.
    static let timestampLength = 29

    /// Appends `micros` (since 1970, UTC, years 1970 to 9999) as `YYYY-MM-DD HH:MM:SS.ffffff+00`.
    static func appendTimestamp(micros: Int64, to out: inout [UInt8]) {
        let day = micros / 86_400_000_000
        let (year, month, dayOfMonth) = RFC3339.civil(days: day)
        let inDay = micros - day * 86_400_000_000
        // Written into a buffer of its own, digits from the right, then appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: timestampLength) { text in
            func put(_ value: Int64, endingAt end: Int, width: Int) {
                var rest = value
                for index in stride(from: end, to: end - width, by: -1) {
                    text[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                }
            }
            put(year, endingAt: 3, width: 4)
            text[4] = UInt8(ascii: "-")
            put(month, endingAt: 6, width: 2)
            text[7] = UInt8(ascii: "-")
            put(dayOfMonth, endingAt: 9, width: 2)
            text[10] = UInt8(ascii: " ")
            put(inDay / 3_600_000_000, endingAt: 12, width: 2)
            text[13] = UInt8(ascii: ":")
            put(inDay / 60_000_000 % 60, endingAt: 15, width: 2)
            text[16] = UInt8(ascii: ":")
            put(inDay / 1_000_000 % 60, endingAt: 18, width: 2)
            text[19] = UInt8(ascii: ".")
            put(inDay % 1_000_000, endingAt: 25, width: 6)
            (text[26], text[27], text[28]) = (UInt8(ascii: "+"), UInt8(ascii: "0"), UInt8(ascii: "0"))
            out.append(contentsOf: UnsafeBufferPointer(text))
        }
    }
}
