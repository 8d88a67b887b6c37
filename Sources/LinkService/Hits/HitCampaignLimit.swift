import Foundation

/// Bounds the distinct campaigns the hourly rollups keep per workspace and hour, so that URLs carrying made-up
/// `utm_*` values (anyone can append `?utm_term=<random>` to a link) cannot grow the rollups (`hit_rollups_pending`,
/// then the cubes) by a row per hit. The first `perHour` distinct campaigns of a workspace's hour are counted as they are; later ones are
/// counted with each value they have replaced by `Hit.Campaign.overflowValue`, `(other)` (the raw hits keep every
/// value). Each writer counts what it admitted itself, and forgets at restart: a workspace's hour keeps at most
/// `perHour` campaigns per node and process that wrote it, plus the `(other)` forms.
///
/// The writer thread's own state, as its known visitors are (`HitWriteTarget`); a batch's summary works on a copy
/// that replaces it once the batch commits.
struct HitCampaignLimit {
    struct Key: Hashable {
        var workspace: UUID
        var hour: Int64
    }

    /// Distinct campaigns kept per workspace and hour (`HitsConfiguration.campaignsPerHour`).
    let perHour: Int
    private var admitted: [Key: Set<Hit.Campaign>] = [:]
    /// Workspace hours remembered at most; beyond, everything is forgotten (hours that old are rare: a spool replay).
    static let maxHours = 10_000

    init(perHour: Int = .max) {
        self.perHour = perHour
    }

    /// `campaign` when the workspace's hour already counts it or has room for it (it is then counted), else its
    /// `(other)` form.
    mutating func admit(_ campaign: Hit.Campaign, workspace: UUID, hour: Int64) -> Hit.Campaign {
        let key = Key(workspace: workspace, hour: hour)
        if let kept = admitted[key] {
            if kept.contains(campaign) { return campaign }
            if kept.count >= perHour { return campaign.overflowed }
        } else if admitted.count >= Self.maxHours {
            admitted.removeAll()
        }
        admitted[key, default: []].insert(campaign)
        return campaign
    }

    /// Forgets the hours before `hour` (hours since 1970).
    mutating func forget(before hour: Int64) {
        admitted = admitted.filter { $0.key.hour >= hour }
    }
}
