import Foundation

/// A batch of hits as the data of `COPY hits (<columns>) FROM STDIN (FORMAT binary)`, encoded straight from
/// the `Hit` values into ~32 KiB chunks as `Connection.copyFrom(_:data:)` asks for them (the next chunk is
/// encoded while the server reads the previous one).
///
/// Binary rather than text: the server then parses no timestamps, UUIDs or escapes (the text form cost it
/// about twice the CPU per row), and nothing here formats a field as a `String` first. Each hit carries its
/// `id`, taken from blocks of `idBlockSize` values reserved with one `nextval('hits_id_seq')` each (the
/// sequence increments by that much, `migrations/0005`): ids still follow the order hits are written in, and
/// the server evaluates no sequence default per row. NUL bytes, which PostgreSQL text cannot hold, are left
/// out of text values, as in the spool.
///
/// Paced (`spread`): before each chunk the writer pauses for the previous chunk's share of `spread` (by its
/// hits), so the database's work for a batch (most of a hit's cost) comes in slices of a fraction of a
/// millisecond, not in one burst of tens of milliseconds: on a small machine such a burst, by threads that
/// slept and are owed CPU, holds a core while a request thread waits for it (bench/serving).
struct HitCopyData: Sequence {
    /// The `hits` columns each tuple fills, in order.
    static let columns =
        "id, time, workspace_id, hostname, path, query, outcome, app_id, rule_id, destination_type, source, platform, is_bot, referrer_host, visitor_hash"
    /// Ids one `nextval('hits_id_seq')` reserves: the sequence's increment.
    static let idBlockSize = 1024
    /// Microseconds from 1970-01-01 to 2000-01-01, PostgreSQL's timestamp epoch.
    static let postgresEpoch: Int64 = 946_684_800_000_000
    static let chunkSize = 32 * 1024
    static let fieldCount = Int16(15)

    let hits: ArraySlice<Hit>
    /// Starts of the reserved id blocks, ascending: hit `n` of the batch gets `idBlocks[n / idBlockSize] + n % idBlockSize`.
    let idBlocks: [Int64]
    /// The time to spread the chunks over (zero: as fast as they are taken).
    var spread: Duration = .zero
    /// Called with each chunk's hits once they are encoded: other per-hit work of the batch (its rollup summary)
    /// done in the same slices, paced with them.
    var eachChunk: ((ArraySlice<Hit>) -> Void)? = nil

    /// How many id blocks `count` hits need.
    static func blocks(for count: Int) -> Int { (count + idBlockSize - 1) / idBlockSize }

    func makeIterator() -> Iterator { Iterator(data: self) }

    struct Iterator: IteratorProtocol {
        let data: HitCopyData
        var position: Int
        var started = false
        var finished = false
        /// Where the hits handed out before the last pause end.
        private var lastPaced: Int

        init(data: HitCopyData) {
            self.data = data
            position = data.hits.startIndex
            lastPaced = data.hits.startIndex
        }

        mutating func next() -> [UInt8]? {
            guard !finished else { return nil }
            pace()
            var writer = Writer()
            if !started {
                started = true
                // Signature, flags (no OIDs), header extension length.
                writer.bytes.append(contentsOf: [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00])
                writer.put(Int32(0))
                writer.put(Int32(0))
            }
            let hits = data.hits
            let chunkStart = position
            while position < hits.endIndex, writer.bytes.count < HitCopyData.chunkSize {
                let offset = position - hits.startIndex
                let id = data.idBlocks[offset / HitCopyData.idBlockSize] + Int64(offset % HitCopyData.idBlockSize)
                writer.put(hits[position], id: id)
                position += 1
            }
            data.eachChunk?(hits[chunkStart..<position])
            if position == hits.endIndex {
                writer.put(Int16(-1))   // trailer
                finished = true
            }
            return writer.bytes
        }

        /// Pauses before each chunk after the first for the previous chunk's share of `spread` (its hits' share of
        /// the batch): a fixed pause, not a schedule to catch up with, so a writer that was itself kept waiting
        /// does not make up for it in one burst.
        private mutating func pace() {
            guard data.spread > .zero, !data.hits.isEmpty, position > lastPaced else {
                return
            }
            let share = Double(position - lastPaced) / Double(data.hits.count)
            lastPaced = position
            let (seconds, attoseconds) = (data.spread * share).components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        }
    }

    /// Appends big-endian integers and length-prefixed fields.
    struct Writer {
        var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(HitCopyData.chunkSize + 8 * 1024) }

        mutating func put<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func put(_ hit: Hit, id: Int64) {
            put(HitCopyData.fieldCount)
            put(Int32(8)); put(id)
            put(Int32(8)); put(hit.micros - HitCopyData.postgresEpoch)
            put(hit.workspaceID)
            put(hit.hostname)
            put(hit.path)
            put(hit.query)
            put(hit.outcome.rawValue)
            put(hit.appID)
            put(hit.ruleID)
            put(hit.destinationType)
            put(hit.source.rawValue)
            put(hit.platform.rawValue)
            put(Int32(1)); bytes.append(hit.isBot ? 1 : 0)
            put(hit.referrerHost)
            put(hit.visitorHash)
        }

        mutating func put(_ id: UUID?) {
            guard let id else { return put(Int32(-1)) }
            put(Int32(16))
            withUnsafeBytes(of: id.uuid) { bytes.append(contentsOf: $0) }
        }

        mutating func put(_ text: String?) {
            guard let text else { return put(Int32(-1)) }
            // Native strings expose their UTF-8 in place; others (bridged) are copied once.
            if text.utf8.withContiguousStorageIfAvailable({ put(utf8: $0) }) == nil {
                Array(text.utf8).withUnsafeBufferPointer { put(utf8: $0) }
            }
        }

        private mutating func put(utf8 text: UnsafeBufferPointer<UInt8>) {
            guard let base = text.baseAddress, memchr(base, 0, text.count) != nil else {
                put(Int32(text.count))
                bytes.append(contentsOf: UnsafeRawBufferPointer(text))
                return
            }
            let kept = text.filter { $0 != 0 }
            put(Int32(kept.count))
            bytes.append(contentsOf: kept)
        }
    }
}
