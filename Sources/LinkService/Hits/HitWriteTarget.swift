import Foundation
import Observability

/// What the hit writer writes with (`RecordWriter`): `HitStore.write` (COPY and the batch's rollups), the partitions
/// known to exist, the campaigns each hour keeps, and the maintenance (partitions ahead, retention, salts) at start,
/// hourly, and when the UTC day changes.
struct HitWriteTarget: RecordTarget {
    private let batcher: HitBatcher
    private let clock = ContinuousClock()
    private var knownPartitions: Set<Int64> = []
    private var campaigns: HitCampaignLimit
    private var nextMaintenance: ContinuousClock.Instant
    private var maintainedDay: Int64 = -1

    init(batcher: HitBatcher) {
        self.batcher = batcher
        campaigns = HitCampaignLimit(perHour: batcher.configuration.campaignsPerHour)
        nextMaintenance = clock.now
    }

    mutating func maintainIfDue() {
        let today = VisitorHasher.day(of: Date())
        guard clock.now >= nextMaintenance || today != maintainedDay else { return }
        do {
            let result = try batcher.store.maintain()
            knownPartitions = result.partitions
            batcher.visitors.install(result.salts)
            maintainedDay = today
            nextMaintenance = clock.now + .seconds(3600)
            campaigns.forget(before: Int64((Date().timeIntervalSince1970 / 3600).rounded(.down)) - 1)
        } catch {
            batcher.logger.warning("hit maintenance failed; will retry", metadata: ["error": "\(error)"])
            nextMaintenance = clock.now + .seconds(5)
            maintainedDay = today // retried by the timer, not on every cycle
        }
    }

    mutating func write(_ records: ArraySlice<Hit>, pacing: HitPacing) throws(HitStore.Failure) {
        try batcher.store.write(records, pacing: pacing, knownPartitions: &knownPartitions, campaigns: &campaigns)
    }

    /// A missing partition is class 23 too: re-created before the rows are judged.
    mutating func rejected() {
        knownPartitions = []
    }

    func describe(_ record: Hit) -> Logger.Metadata {
        ["hits.host": record.hostname]
    }
}
