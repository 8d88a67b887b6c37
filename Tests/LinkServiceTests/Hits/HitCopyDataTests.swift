import Foundation
@testable import LinkService
import Testing

@Suite("Hit COPY data")
struct HitCopyDataTests {
    /// Reads big-endian values and length-prefixed fields back from COPY binary data.
    struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func int<T: FixedWidthInteger>(_: T.Type) -> T {
            defer { at += MemoryLayout<T>.size }
            return bytes[at..<at + MemoryLayout<T>.size].reduce(T.zero) { $0 << 8 | T($1) }
        }

        /// A field's bytes, nil for NULL.
        mutating func field() -> [UInt8]? {
            let length = Int(int(Int32.self))
            guard length >= 0 else { return nil }
            defer { at += length }
            return Array(bytes[at..<at + length])
        }

        mutating func text() -> String? { field().map { String(decoding: $0, as: UTF8.self) } }

        /// A `uuid` field (its 16 bytes); nil for NULL or another length.
        mutating func uuid() -> UUID? {
            field().flatMap { bytes in bytes.count == 16 ? UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }) : nil }
        }

        /// A field holding one big-endian `Int64`.
        mutating func int64Field() -> Int64? {
            guard let bytes = field(), bytes.count == 8 else { return nil }
            var reader = Reader(bytes: bytes)
            return reader.int(Int64.self)
        }
    }

    @Test func chunksHoldWholeRowsThatReadBackAsWritten() throws {
        let workspace = UUID(), app = UUID(), link = UUID()
        let campaign = Hit.Campaign(source: "news", campaign: String(repeating: "ü", count: 150))
        let hits = (0..<2_500).map { index in
            var hit = Hit.sample(
                workspace: index % 7 == 0 ? nil : workspace, path: "/w/\(index)" + (index % 100 == 0 ? "\u{0}x" : ""),
                isBot: index % 2 == 0, app: index % 3 == 0 ? app : nil, destination: index % 5 == 0 ? "widgetDetail" : nil,
                referrer: index % 11 == 0 ? String(repeating: "r", count: 900) : nil, visitor: "v\(index)",
                served: index % 4 == 0 ? nil : Hit.Served.allCases[index % 4],
                link: index % 6 == 0 ? link : nil, campaign: index % 9 == 0 ? campaign : nil)
            if index % 8 != 0 {
                (hit.country, hit.os, hit.browser) = (
                    index % 3 == 0 ? nil : "DE", "iOS", index % 10 == 0 ? "Mobile\u{0}Safari" : "Mobile Safari"
                )
                hit.device = Hit.Device.allCases[index % Hit.Device.allCases.count]
            }
            if index % 5 == 1 { (hit.target, hit.variant) = ("germany", index % 2 == 0 ? "b" : nil) }
            return hit
        }
        // Cut to 200 bytes at a character boundary: 100 two-byte characters.
        #expect(campaign.campaign == String(repeating: "ü", count: 100))
        var handed: [Hit] = []
        let data = HitCopyData(hits: hits[...], idBlocks: [5_000, 1_024, 9_216], eachChunk: { handed += $0 })
        let chunks = Array(data)
        #expect(chunks.count > 1)
        for chunk in chunks { #expect(chunk.count <= HitCopyData.chunkSize + HitCopyData.Writer.headerSize + 2) }
        #expect(handed.map(\.path) == hits.map(\.path))

        var reader = Reader(bytes: chunks.flatMap { $0 })
        #expect(Array(reader.bytes.prefix(11)) == [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00])
        reader.at = 11
        #expect(reader.int(Int32.self) == 0 && reader.int(Int32.self) == 0)
        for (index, hit) in hits.enumerated() {
            #expect(reader.int(Int16.self) == 28)
            let id = reader.int64Field()
            #expect(id == [5_000, 1_024, 9_216][index / 1024] + Int64(index % 1024))
            let time = reader.int64Field()
            #expect(time == hit.micros - HitCopyData.postgresEpoch)
            #expect(reader.field().map { $0.count } == (hit.workspaceID == nil ? nil : 16))
            #expect(reader.text() == hit.hostname)
            #expect(reader.text() == hit.path.replacingOccurrences(of: "\u{0}", with: ""))
            #expect(reader.text() == nil) // query
            #expect(reader.text() == hit.outcome.rawValue)
            #expect(reader.uuid() == hit.appID)
            #expect(reader.field() == nil) // rule
            #expect(reader.text() == hit.destinationType)
            #expect(reader.text() == hit.source.rawValue)
            #expect(reader.text() == hit.platform.rawValue)
            #expect(reader.field() == [hit.isBot ? 1 : 0])
            #expect(reader.text() == hit.referrerHost)
            #expect(reader.text() == hit.visitorHash)
            #expect(reader.text() == hit.served?.rawValue)
            #expect(reader.uuid() == hit.linkID)
            #expect(reader.text() == hit.utmSource)
            #expect(reader.text() == hit.utmMedium)
            #expect(reader.text() == hit.utmCampaign)
            #expect(reader.text() == hit.utmTerm)
            #expect(reader.text() == hit.utmContent)
            #expect(reader.text() == hit.country)
            #expect(reader.text() == hit.os)
            #expect(reader.text() == hit.browser?.replacingOccurrences(of: "\u{0}", with: ""))
            #expect(reader.text() == hit.device?.rawValue)
            #expect(reader.text() == hit.target)
            #expect(reader.text() == hit.variant)
        }
        #expect(reader.int(Int16.self) == -1)
        #expect(reader.at == reader.bytes.count)
    }
}
