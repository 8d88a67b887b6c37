import Foundation
import LinkKit
import Postgres

/// One domain's stored links held compactly for the click path (`LinkIndex`): an open-addressed table of 64-bit
/// slots keyed by a hash of the slug, each pointing into one byte arena (in chunks) where the link's served
/// fields are encoded one after the other. Immutable once built; a lookup decodes one `ServedLink`.
///
/// A slot is 0 (empty) or the top 16 bits of the slug's hash beside the entry's place + 1. An entry is the slug
/// (a length byte and its bytes), 32 bits of `Field` flags, and then, unless the entry only says "ask the
/// database", the id (16 bytes), the app (an index into `apps`), the destination type (an index into `types`)
/// and each text field present as a varint length and its bytes, in `Field` order.
final class LinkSegment: Sendable {
    private let slots: [UInt64]
    private let chunks: [[UInt8]]
    private let types: [String]
    /// Apps' canonical id text (`ServedLink.appID`).
    private let apps: [String]
    private let seed: UInt64
    /// Links held.
    let count: Int
    /// Memory held: the arena's chunks, the slots and the tables.
    let bytes: Int

    /// What an entry holds, a bit each.
    struct Field: OptionSet {
        let rawValue: UInt32
        /// The link is served as the database reads it (a click limit, targets or variants: `LinkCache`'s query).
        static let database = Field(rawValue: 1 << 0)
        static let app = Field(rawValue: 1 << 1)
        static let destination = Field(rawValue: 1 << 2)
        static let skipStore = Field(rawValue: 1 << 3)
        /// The text fields, in the order they are written (`LinkStore.copyServed`'s columns 5 to 21: params, url, the four fallbacks, the five `utm_*`, the preview's title, description and image, name, data, expiry).
        static let firstText: UInt32 = 4
        static let textCount = 17
    }

    /// Bytes of one arena chunk; an entry never straddles two.
    static let chunkSize = 1 << 20
    /// The most links a table holds per slot: lower keeps probes short, higher memory small.
    static let loadFactor = 0.7

    fileprivate init(builder: Builder) {
        var capacity = 16
        while Double(capacity) * Self.loadFactor < Double(builder.hashes.count) { capacity *= 2 }
        var slots = [UInt64](repeating: 0, count: capacity)
        let mask = UInt64(capacity - 1)
        for (hash, place) in zip(builder.hashes, builder.places) {
            var slot = hash & mask
            while slots[Int(slot)] != 0 { slot = (slot + 1) & mask }
            slots[Int(slot)] = (hash & 0xFFFF_0000_0000_0000) | (place + 1)
        }
        self.slots = slots
        chunks = builder.chunks + (builder.current.isEmpty ? [] : [builder.current])
        types = builder.typeList
        apps = builder.appList
        seed = builder.seed
        count = builder.hashes.count
        bytes = chunks.reduce(0) { $0 + $1.capacity } + capacity * 8 + (types.count + apps.count) * 64
    }

    /// What the segment holds for `slug`.
    enum Found {
        case link(ServedLink)
        case absent
        /// Held as "ask the database" (`Field.database`), or an entry that could not be read.
        case database
    }

    func find(_ slug: String) -> Found {
        var slug = slug
        return slug.withUTF8 { find(slug: $0) }
    }

    private func find(slug: UnsafeBufferPointer<UInt8>) -> Found {
        let hash = Self.hash(slug, seed: seed)
        let mask = UInt64(slots.count - 1)
        var slot = hash & mask
        while true {
            let value = slots[Int(slot)]
            if value == 0 { return .absent }
            if value & 0xFFFF_0000_0000_0000 == hash & 0xFFFF_0000_0000_0000 {
                let place = (value & 0x0000_FFFF_FFFF_FFFF) - 1
                let chunk = Int(place >> 20), offset = Int(place & UInt64(Self.chunkSize - 1))
                let found: Found? = chunks[chunk].withUnsafeBufferPointer { bytes in
                    var reader = Reader(bytes: bytes, offset: offset)
                    guard let stored = reader.slug(), stored.elementsEqual(slug) else { return nil }
                    return decode(&reader, slug: slug)
                }
                if let found { return found }
            }
            slot = (slot + 1) & mask
        }
    }

    private func decode(_ reader: inout Reader, slug: UnsafeBufferPointer<UInt8>) -> Found {
        guard let raw = reader.uint32() else { return .database }
        let fields = Field(rawValue: raw)
        if fields.contains(.database) { return .database }
        guard let id = reader.uuid() else { return .database }
        var appID: String?
        if fields.contains(.app) {
            guard let index = reader.uint16(), Int(index) < apps.count else { return .database }
            appID = apps[Int(index)]
        }
        var type: String?
        if fields.contains(.destination) {
            guard let index = reader.uint16(), Int(index) < types.count else { return .database }
            type = types[Int(index)]
        }
        var texts = [String?](repeating: nil, count: Field.textCount)
        for index in 0..<Field.textCount where raw & (1 << (Field.firstText + UInt32(index))) != 0 {
            guard let text = reader.text() else { return .database }
            texts[index] = text
        }
        var params: [JSONMember] = []
        if let text = texts[0], case .object(let members)? = try? JSONValue.parse(text) { params = members }
        var expiresAt: Date?
        if let text = texts[16] {
            guard let date = try? Date(postgresText: text, type: .timestamptz) else { return .database }
            expiresAt = date
        }
        return .link(
            ServedLink(
                id: id, slug: String(decoding: slug, as: UTF8.self), appID: appID, destinationType: type, params: params,
                webURL: texts[1],
                fallbacks: .init(ios: texts[2], ipad: texts[3], android: texts[4], desktop: texts[5]),
                skipStore: fields.contains(.skipStore),
                campaign: Link.Campaign(source: texts[6], medium: texts[7], campaign: texts[8], term: texts[9], content: texts[10]),
                preview: LinkPreview(title: texts[11], description: texts[12], imageURL: texts[13]),
                expiresAt: expiresAt, maxClicks: nil, clicks: 0, tapsWritten: 0, name: texts[14],
                data: texts[15].map { Array($0.utf8) }, targeting: nil))
    }

    /// FNV-1a over the bytes from a seeded basis, then SplitMix64's finalizer so the top bits (the fingerprint) and
    /// the bottom ones (the slot) both depend on every byte.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }

    /// Reads an entry.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset: Int

        mutating func slug() -> UnsafeBufferPointer<UInt8>? {
            guard offset < bytes.count else { return nil }
            let length = Int(bytes[offset])
            guard offset + 1 + length <= bytes.count else { return nil }
            defer { offset += 1 + length }
            return UnsafeBufferPointer(rebasing: bytes[(offset + 1)..<(offset + 1 + length)])
        }

        mutating func uint16() -> UInt16? {
            guard offset + 2 <= bytes.count else { return nil }
            defer { offset += 2 }
            return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
        }

        mutating func uint32() -> UInt32? {
            guard let low = uint16(), let high = uint16() else { return nil }
            return UInt32(low) | UInt32(high) << 16
        }

        mutating func uuid() -> UUID? {
            guard offset + 16 <= bytes.count else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &value) {
                $0.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[offset..<(offset + 16)])))
            }
            offset += 16
            return UUID(uuid: value)
        }

        mutating func text() -> String? {
            var length = 0, shift = 0
            while true {
                guard offset < bytes.count, shift < 32 else { return nil }
                let byte = bytes[offset]
                offset += 1
                length |= Int(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            guard offset + length <= bytes.count else { return nil }
            defer { offset += length }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
        }
    }

    /// Builds a segment from `LinkStore.copyServed` rows.
    struct Builder {
        let seed: UInt64
        fileprivate var chunks: [[UInt8]] = []
        fileprivate var current: [UInt8] = []
        fileprivate var hashes: [UInt64] = []
        fileprivate var places: [UInt64] = []
        fileprivate var typeList: [String] = []
        fileprivate var appList: [String] = []
        private var typeIndex: [String: UInt16] = [:]
        private var appIndex: [UUID: UInt16] = [:]
        private var entry: [UInt8] = []

        init(seed: UInt64) {
            self.seed = seed
        }

        /// Links added.
        var count: Int { hashes.count }

        /// Memory held so far, as `LinkSegment.bytes` will count it once built.
        var bytes: Int {
            var capacity = 16
            while Double(capacity) * LinkSegment.loadFactor < Double(hashes.count) { capacity *= 2 }
            return chunks.count * LinkSegment.chunkSize + current.capacity + capacity * 8 + hashes.capacity * 16
                + (typeList.count + appList.count) * 64
        }

        /// Adds the link of a `LinkStore.copyServed` row; false when the row is not one (its domain cannot be held).
        mutating func add(_ row: CopyRow) -> Bool {
            guard let slug = row[1], slug.count <= 255, let id = row.uuid(2) else { return false }
            entry.removeAll(keepingCapacity: true)
            entry.append(UInt8(slug.count))
            entry.append(contentsOf: slug)
            let header = entry.count
            var fields = Field()
            append(UInt32(0))
            if let flag = row[23], flag.count == 1, flag[0] != 0 {
                fields.insert(.database)
            } else {
                withUnsafeBytes(of: id.uuid) { entry.append(contentsOf: $0) }
                if let app = row.uuid(3) {
                    guard let index = index(of: app) else { return false }
                    fields.insert(.app)
                    append(index)
                }
                if let type = row[4] {
                    guard let index = index(of: String(decoding: type, as: UTF8.self)) else { return false }
                    fields.insert(.destination)
                    append(index)
                }
                if let skip = row[22], skip.count == 1, skip[0] != 0 { fields.insert(.skipStore) }
                for index in 0..<Field.textCount {
                    guard let text = row[5 + index] else { continue }
                    fields.insert(Field(rawValue: 1 << (Field.firstText + UInt32(index))))
                    if index == 15 {
                        // `data` as resolve answers carry it: serialized again, as `ServedLink` does.
                        guard let value = try? JSONValue.parse(bytes: Array(text)) else {
                            fields.insert(.database)
                            break
                        }
                        appendText(value.serializedBytes)
                    } else {
                        appendText(text)
                    }
                }
                if fields.contains(.database) { entry.removeSubrange((header + 4)...) }
            }
            if entry.count > LinkSegment.chunkSize {
                // Too large for a chunk: served as the database reads it.
                fields = .database
                entry.removeSubrange((header + 4)...)
            }
            withUnsafeBytes(of: fields.rawValue.littleEndian) { entry.replaceSubrange(header..<(header + 4), with: $0) }
            if current.count + entry.count > LinkSegment.chunkSize {
                chunks.append(current)
                current = []
                current.reserveCapacity(LinkSegment.chunkSize)
            }
            // (A chunk grows as arrays do, so a domain of a few links holds a few bytes; a full one holds its size.)
            if current.count + entry.count > current.capacity, current.capacity * 2 > LinkSegment.chunkSize {
                current.reserveCapacity(LinkSegment.chunkSize)
            }
            places.append(UInt64(chunks.count) << 20 | UInt64(current.count))
            current.append(contentsOf: entry)
            hashes.append(LinkSegment.hash(slug.assumingMemoryBound(to: UInt8.self), seed: seed))
            return true
        }

        /// A varint length, then the bytes.
        private mutating func appendText(_ text: some Collection<UInt8>) {
            var length = text.count
            while length >= 0x80 {
                entry.append(UInt8(length & 0x7F) | 0x80)
                length >>= 7
            }
            entry.append(UInt8(length))
            entry.append(contentsOf: text)
        }

        private mutating func append(_ value: UInt16) {
            entry.append(UInt8(value & 0xFF))
            entry.append(UInt8(value >> 8))
        }

        private mutating func append(_ value: UInt32) {
            append(UInt16(value & 0xFFFF))
            append(UInt16(value >> 16))
        }

        private mutating func index(of app: UUID) -> UInt16? {
            if let index = appIndex[app] { return index }
            guard appList.count < Int(UInt16.max) else { return nil }
            let index = UInt16(appList.count)
            appIndex[app] = index
            appList.append(app.canonicalText)
            return index
        }

        private mutating func index(of type: String) -> UInt16? {
            if let index = typeIndex[type] { return index }
            guard typeList.count < Int(UInt16.max) else { return nil }
            let index = UInt16(typeList.count)
            typeIndex[type] = index
            typeList.append(type)
            return index
        }

        func build() -> LinkSegment { LinkSegment(builder: self) }
    }
}
