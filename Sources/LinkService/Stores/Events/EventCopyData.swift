import Foundation

/// A batch of events as the data of `COPY events (<columns>) FROM STDIN (FORMAT binary)` (`EventStore.write`), in
/// ~64 KiB chunks encoded straight from the records: the server parses no text, timestamps or UUIDs, and nothing here
/// formats a field as a `String` first (the hits' `HitCopyData`, for the same reasons). Every field of `Event` and
/// `EventAttribution` has its column (`EventColumnsTests` holds `columns` to `EventColumns.names`, the `Codable`
/// keys). NUL bytes, which PostgreSQL text cannot hold, are left out of text values, as in the hits.
struct EventCopyData: Sequence {
    /// The `events` columns each tuple fills, in order.
    static let columns = [
        "workspace_id", "received_at", "app_id", "kind", "name", "occurred_at", "value_minor", "currency", "idempotency_key",
        "visitor_id", "click_token_hash", "url", "attribution", "link_id", "utm_source", "utm_medium", "utm_campaign",
        "utm_term", "utm_content", "target", "variant", "country", "os", "unattributed_reason",
    ]
    /// Microseconds from 1970-01-01 to 2000-01-01, PostgreSQL's timestamp epoch.
    static let postgresEpoch: Int64 = 946_684_800_000_000
    static let chunkSize = 64 * 1024

    let records: ArraySlice<EventRecord>

    func makeIterator() -> Iterator { Iterator(records: records) }

    struct Iterator: IteratorProtocol {
        let records: ArraySlice<EventRecord>
        var position: Int
        var started = false
        var finished = false

        init(records: ArraySlice<EventRecord>) {
            self.records = records
            position = records.startIndex
        }

        mutating func next() -> [UInt8]? {
            guard !finished else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(EventCopyData.chunkSize + 4096)
            if !started {
                started = true
                out.append(contentsOf: [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00]) // PGCOPY\n\377\r\n\0
                Self.put(Int32(0), &out) // flags: no OIDs
                Self.put(Int32(0), &out) // header extension length
            }
            while position < records.endIndex, out.count < EventCopyData.chunkSize {
                Self.put(records[position], &out)
                position += 1
            }
            if position == records.endIndex {
                Self.put(Int16(-1), &out) // trailer
                finished = true
            }
            return out
        }

        private static func put(_ record: EventRecord, _ out: inout [UInt8]) {
            let event = record.event
            let a = event.attribution
            put(Int16(EventCopyData.columns.count), &out)
            put(record.workspace, &out)
            put(record.receivedAt, &out)
            put(event.app, &out)
            put(event.kind.rawValue, &out)
            put(event.name, &out)
            put(event.occurredAt, &out)
            if let value = event.value {
                put(Int32(8), &out)
                put(value, &out)
            } else {
                put(Int32(-1), &out)
            }
            put(event.currency, &out)
            put(event.idempotencyKey, &out)
            put(event.visitorID, &out)
            put(event.clickTokenHash, &out)
            put(event.url, &out)
            put(a.via.rawValue, &out)
            put(a.linkID, &out)
            put(a.utmSource, &out)
            put(a.utmMedium, &out)
            put(a.utmCampaign, &out)
            put(a.utmTerm, &out)
            put(a.utmContent, &out)
            put(a.target, &out)
            put(a.variant, &out)
            put(a.country, &out)
            put(a.os, &out)
            put(a.reason, &out)
        }

        private static func put<T: FixedWidthInteger>(_ value: T, _ out: inout [UInt8]) {
            withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) }
        }

        private static func put(_ date: Date, _ out: inout [UInt8]) {
            put(Int32(8), &out)
            put(Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) - EventCopyData.postgresEpoch, &out)
        }

        private static func put(_ id: UUID?, _ out: inout [UInt8]) {
            guard let id else { return put(Int32(-1), &out) }
            put(Int32(16), &out)
            withUnsafeBytes(of: id.uuid) { out.append(contentsOf: $0) }
        }

        private static func put(_ text: String?, _ out: inout [UInt8]) {
            guard var text else { return put(Int32(-1), &out) }
            if text.utf8.contains(0) { text.removeAll { $0 == "\0" } }
            let utf8 = text.utf8
            put(Int32(utf8.count), &out)
            out.append(contentsOf: utf8)
        }
    }
}
