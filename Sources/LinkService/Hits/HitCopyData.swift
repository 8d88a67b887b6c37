import Foundation
import Observability

/// A batch of hits as the data of `COPY hits (<columns>) FROM STDIN (FORMAT binary)`, encoded straight from
/// the `Hit` values into ~32 KiB chunks as `Connection.copyFrom(_:data:)` asks for them (the next chunk is
/// encoded while the server reads the previous one).
///
/// Binary rather than text: the server then parses no timestamps, UUIDs or escapes, and nothing here formats a
/// field as a `String` first (bench/hits/README.md compares the two forms). Each hit carries its
/// `id`, taken from blocks of `idBlockSize` values reserved with one `nextval('hits_id_seq')` each (the
/// sequence increments by that much, `migrations/0005`): ids still follow the order hits are written in, and
/// the server evaluates no sequence default per row. NUL bytes, which PostgreSQL text cannot hold, are left
/// out of text values, as in the spool.
///
/// Paced (`pacing`, `HitPacing`): before each chunk after the first, the previous chunk's share of the
/// batch's spread.
struct HitCopyData: Sequence {
    /// The `hits` columns each tuple fills, in order.
    static let columns =
        "id, time, workspace_id, hostname, path, query, outcome, app_id, rule_id, destination_type, source, platform, is_bot, referrer_host, visitor_hash, served, "
        + "link_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, os, browser, device, target, variant"
    /// Ids one `nextval('hits_id_seq')` reserves: the sequence's increment.
    static let idBlockSize = 1024
    /// Microseconds from 1970-01-01 to 2000-01-01, PostgreSQL's timestamp epoch.
    static let postgresEpoch: Int64 = 946_684_800_000_000
    static let chunkSize = 32 * 1024
    static let fieldCount = Int16(28)

    let hits: ArraySlice<Hit>
    /// Starts of the reserved id blocks, ascending: hit `n` of the batch gets `idBlocks[n / idBlockSize] + n % idBlockSize`.
    let idBlocks: [Int64]
    /// How fast the chunks are handed out (`HitPacing.fullSpeed`: as fast as they are taken).
    var pacing = HitPacing.fullSpeed
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
            let hits = data.hits
            let chunkStart = position
            // Room for a chunk's rows, or for one row larger than that; rows are written in place.
            let capacity =
                Swift.max(HitCopyData.chunkSize, position < hits.endIndex ? Writer.maximumSize(of: hits[position]) : 0)
                + Writer.headerSize + 2
            let chunk = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                var writer = Writer(buffer.baseAddress!)
                if !started {
                    started = true
                    writer.putHeader()
                }
                while position < hits.endIndex {
                    let hit = hits[position]
                    guard position == chunkStart || writer.count + Writer.maximumSize(of: hit) <= HitCopyData.chunkSize else { break }
                    let offset = position - hits.startIndex
                    writer.put(hit, id: data.idBlocks[offset / HitCopyData.idBlockSize] + Int64(offset % HitCopyData.idBlockSize))
                    position += 1
                }
                if position == hits.endIndex {
                    writer.put(Int16(-1)) // trailer
                    finished = true
                }
                count = writer.count
            }
            data.eachChunk?(hits[chunkStart..<position])
            return chunk
        }

        /// Pauses before each chunk after the first for the previous chunk's share of the pacing's spread.
        private mutating func pace() {
            guard position > lastPaced else { return }
            data.pacing.pause(afterChunkOf: position - lastPaced, in: data.hits.count)
            lastPaced = position
        }
    }

    /// Writes big-endian integers and length-prefixed fields in place, into memory the caller sized with
    /// `maximumSize(of:)` (no `Array` append per field).
    struct Writer {
        private let base: UnsafeMutablePointer<UInt8>
        private(set) var count = 0

        /// The file header's size: signature, flags, header extension length.
        static let headerSize = 19

        init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

        /// The most bytes `put(hit, id:)` writes for `hit` (NUL bytes left out of text make it less).
        static func maximumSize(of hit: Hit) -> Int {
            2 + Int(HitCopyData.fieldCount) * 4 + 8 + 8 + 16 * 4 + 1 + hit.hostname.utf8.count + hit.path.utf8.count
                + (hit.query?.utf8.count ?? 0)
                + hit.outcome.rawValue.utf8.count + (hit.destinationType?.utf8.count ?? 0) + hit.source.rawValue.utf8.count
                + hit.platform.rawValue.utf8.count + (hit.referrerHost?.utf8.count ?? 0) + (hit.visitorHash?.utf8.count ?? 0)
                + (hit.served?.rawValue.utf8.count ?? 0) + (hit.campaign.map(Self.size(of:)) ?? 0)
                + (hit.country?.utf8.count ?? 0) + (hit.os?.utf8.count ?? 0) + (hit.browser?.utf8.count ?? 0)
                + (hit.device?.rawValue.utf8.count ?? 0) + (hit.target?.utf8.count ?? 0) + (hit.variant?.utf8.count ?? 0)
        }

        private static func size(of campaign: Hit.Campaign) -> Int {
            (campaign.source?.utf8.count ?? 0) + (campaign.medium?.utf8.count ?? 0) + (campaign.campaign?.utf8.count ?? 0)
                + (campaign.term?.utf8.count ?? 0) + (campaign.content?.utf8.count ?? 0)
        }

        mutating func putHeader() {
            for byte: UInt8 in [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00] {
                base[count] = byte
                count += 1
            }
            put(Int32(0)) // flags: no OIDs
            put(Int32(0)) // header extension length
        }

        mutating func put<T: FixedWidthInteger>(_ value: T) {
            UnsafeMutableRawPointer(base + count).storeBytes(of: value.bigEndian, as: T.self)
            count += MemoryLayout<T>.size
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
            put(Int32(1)); put(UInt8(hit.isBot ? 1 : 0))
            put(hit.referrerHost)
            put(hit.visitorHash)
            put(hit.served?.rawValue)
            put(hit.linkID)
            if let campaign = hit.campaign {
                put(campaign.source)
                put(campaign.medium)
                put(campaign.campaign)
                put(campaign.term)
                put(campaign.content)
            } else {
                for _ in 0..<5 { put(Int32(-1)) }
            }
            put(hit.country)
            put(hit.os)
            put(hit.browser)
            put(hit.device?.rawValue)
            put(hit.target)
            put(hit.variant)
        }

        mutating func put(_ id: UUID?) {
            guard let id else { return put(Int32(-1)) }
            put(Int32(16))
            withUnsafeBytes(of: id.uuid) { UnsafeMutableRawPointer(base + count).copyMemory(from: $0.baseAddress!, byteCount: 16) }
            count += 16
        }

        mutating func put(_ text: String?) {
            guard let text else { return put(Int32(-1)) }
            // Native strings expose their UTF-8 in place; others (bridged) are copied once.
            if text.utf8.withContiguousStorageIfAvailable({ put(utf8: $0) }) == nil {
                Array(text.utf8).withUnsafeBufferPointer { put(utf8: $0) }
            }
        }

        private mutating func put(utf8 text: UnsafeBufferPointer<UInt8>) {
            guard let source = text.baseAddress, !text.isEmpty else { return put(Int32(0)) }
            guard memchr(source, 0, text.count) != nil else {
                put(Int32(text.count))
                (base + count).update(from: source, count: text.count)
                count += text.count
                return
            }
            let lengthAt = count
            count += 4
            for byte in text where byte != 0 {
                base[count] = byte
                count += 1
            }
            UnsafeMutableRawPointer(base + lengthAt).storeBytes(of: Int32(count - lengthAt - 4).bigEndian, as: Int32.self)
        }
    }
}
