import Foundation
import Observability

/// What the event writer writes with (`RecordWriter`): a batch attributed as a whole (`EventAttributor`: one lookup of
/// click tokens, one of the visitors' last clicks) and written with `EventStore.write` (COPY) in one transaction. An
/// idempotency key repeated within the batch counts once, the first accepted; one stored before, once as well.
struct EventWriteTarget: RecordTarget {
    let batcher: EventBatcher

    mutating func maintainIfDue() {}

    mutating func write(_ records: ArraySlice<EventRecord>, pacing: HitPacing) throws(HitStore.Failure) {
        var seen: Set<String> = []
        var batch = records.filter { seen.insert("\($0.workspace.canonicalText)/\($0.event.idempotencyKey)").inserted }
        // A token is claimable, and known to attribution, once its page is sent: the queued ones are written first.
        if batch.contains(where: { $0.event.clickTokenHash != nil }) { batcher.tokens.flush() }
        do {
            try batcher.pool.withTransaction { connection in
                try batcher.attributor.attribute(&batch, on: connection)
                try EventStore.write(batch, on: connection)
            }
        } catch {
            throw HitStore.classify(error)
        }
    }

    mutating func rejected() {}

    func describe(_ record: EventRecord) -> Logger.Metadata {
        ["events.workspace": record.workspace.canonicalText, "events.name": record.event.name]
    }
}
