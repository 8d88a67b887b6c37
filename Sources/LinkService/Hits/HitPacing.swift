import Foundation

/// How fast one write hands a batch to the database: one value, chosen by `HitWriterStateMachine` and applied
/// by the runner (`RecordWriter`) through the write (`HitStore.write`: the COPY's chunks, `HitCopyData`, and the
/// statements after it, `HitBatchSummary.upsert`).
///
/// Paced, the database's work for a batch (most of a hit's cost) comes in slices of a fraction of a
/// millisecond, not in one burst: on a small machine such a burst, by threads that slept and are owed CPU,
/// holds a core while a request thread waits for it (bench/serving).
struct HitPacing: Sendable, Equatable {
    /// The time a batch's COPY chunks are spread over; zero: as fast as the database takes them.
    let spread: Duration

    /// No pauses: a backlog, a spool replay, the final drain, a split of rejected data.
    static let fullSpeed = HitPacing(spread: .zero)

    /// The pause between two statements of a paced batch.
    static let statementPause = Duration.microseconds(500)

    /// Spreads the COPY over `spread`.
    static func spread(over spread: Duration) -> HitPacing { HitPacing(spread: spread) }

    var isPaced: Bool { spread > .zero }

    /// After a chunk of `hits` of a batch of `total`: pauses for the chunk's share of `spread`. A fixed pause,
    /// not a schedule to catch up with, so a writer that was itself kept waiting does not make up for it in
    /// one burst.
    func pause(afterChunkOf hits: Int, in total: Int) {
        guard isPaced, hits > 0, total > 0 else { return }
        Thread.sleep(forTimeInterval: (spread * (Double(hits) / Double(total))).inSeconds)
    }

    /// Between two statements of the batch's transaction.
    func pauseBetweenStatements() {
        guard isPaced else { return }
        Thread.sleep(forTimeInterval: Self.statementPause.inSeconds)
    }
}
