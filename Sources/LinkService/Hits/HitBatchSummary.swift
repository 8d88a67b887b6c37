import Foundation
import LinkKit
import Postgres

/// One batch of hits aggregated for the rollup tables, in memory, before the statements that go into the
/// same transaction as the batch's `COPY`. Hits without a workspace are not rolled up. Its rollups go to
/// `hit_rollups_pending`, keyed by every dimension, and its path and referrer counts to `hit_top_pending`, which
/// `HitFold` soon moves into the cubes (`AnalyticsCube`) and the top-value tables. Its statements are the hit
/// writer's own SQL, part of the batch transaction `HitStore.write` runs, so they stay here.
struct HitBatchSummary {
    struct RollupKey: Hashable {
        // The closed sets are enums, not their raw text: a key is hashed once per run of hits, and hashing an
        // enum is hashing an integer where a string is hashed byte by byte.
        var workspace: UUID, hour: Int64, hostname: String, app: UUID?, rule: UUID?, destinationType: String?
        var outcome: Hit.Outcome, platform: DevicePlatform, source: Hit.Source, isBot: Bool, served: Hit.Served?
        var link: UUID? = nil, campaign: Hit.Campaign? = nil
        var country: String? = nil, os: String? = nil, browser: String? = nil, device: Hit.Device? = nil
    }

    /// What a rollup row adds: its hits, and the distinct visitor hashes among them (a sketch in the table).
    struct Rollup: Equatable {
        var hits: Int64 = 0
        var visitors: Set<String> = []

        /// Adds a run's hits and visitor hashes (repeats allowed).
        mutating func add(hits count: Int64, visitors hashes: [String]) {
            hits += count
            for hash in hashes { visitors.insert(hash) }
        }
    }

    struct TopKey: Hashable {
        /// The dimensions with top-value rows, named as their `dimension` column.
        enum Dimension: String { case path, referrer }

        var workspace: UUID, dimension: Dimension, hour: Int64, hostname: String, value: String, outcome: Hit.Outcome
    }

    /// The four counts a top-value row keeps (source and bot flag are columns, not key parts; claims count as
    /// clicks there: link traffic as opposed to resolve requests).
    struct TopCounts {
        var humanResolve: Int64 = 0, humanClick: Int64 = 0, botResolve: Int64 = 0, botClick: Int64 = 0

        mutating func add(_ hit: Hit) {
            switch (hit.isBot, hit.source) {
            case (false, .resolve): humanResolve += 1
            case (false, .click), (false, .claim): humanClick += 1
            case (true, .resolve): botResolve += 1
            case (true, .click), (true, .claim): botClick += 1
            }
        }

        mutating func add(_ other: TopCounts) {
            humanResolve += other.humanResolve
            humanClick += other.humanClick
            botResolve += other.botResolve
            botClick += other.botClick
        }
    }

    var rollups: [RollupKey: Rollup] = [:]
    var tops: [TopKey: TopCounts] = [:]
    /// UTC days the batch touches (for its partitions).
    var days: Set<Int64> = []
    /// The campaigns each workspace's hour keeps (the writer's, plus what this summary admitted).
    var campaigns: HitCampaignLimit

    /// An empty summary; `add(_:)` counts hits into it, their campaigns bounded by `campaigns`.
    init(campaigns: HitCampaignLimit = HitCampaignLimit()) {
        self.campaigns = campaigns
    }

    /// Aggregates `hits`.
    init(_ hits: some Sequence<Hit>, campaigns: HitCampaignLimit = HitCampaignLimit()) {
        self.campaigns = campaigns
        add(hits)
    }

    /// Counts `hits` in.
    ///
    /// Consecutive hits with equal keys (one link asked again and again, one visitor's requests) are counted as
    /// one run, so the dictionaries hash a key once per run instead of once per hit; comparing with the run's
    /// key is cheap, as the hits of one link share their strings' storage.
    mutating func add(_ hits: some Sequence<Hit>) {
        var rollup: (key: RollupKey, hits: Int64)?
        // The run's visitor hashes in an array, one for every run (emptied, its storage kept): most runs are a hit
        // or a few, and a set or an array of each run's own cost an allocation per run.
        var runVisitors: [String] = []
        var path: (key: TopKey, counts: TopCounts)?
        var lastDay: Int64?
        // The last campaign admitted and what it was counted as: the hits of one link share theirs, and those of
        // one URL's query carry equal ones.
        var lastCampaign: (original: Hit.Campaign, workspace: UUID, hour: Int64, counted: Hit.Campaign)?
        for hit in hits {
            let micros = hit.micros
            let hour = Self.floorDiv(micros, 3_600_000_000)
            let day = Self.floorDiv(micros, 86_400_000_000)
            if day != lastDay {
                days.insert(day)
                lastDay = day
            }
            guard let workspace = hit.workspaceID else { continue }
            let outcome = hit.outcome
            var campaign = hit.campaign
            if let original = campaign {
                if let last = lastCampaign, last.original == original, last.workspace == workspace, last.hour == hour {
                    campaign = last.counted
                } else {
                    campaign = campaigns.admit(original, workspace: workspace, hour: hour)
                    lastCampaign = (original, workspace, hour, campaign!)
                }
            }
            let rollupKey = RollupKey(workspace: workspace, hour: hour, hostname: hit.hostname, app: hit.appID, rule: hit.ruleID,
                                      destinationType: hit.destinationType, outcome: outcome, platform: hit.platform,
                                      source: hit.source, isBot: hit.isBot, served: hit.served, link: hit.linkID, campaign: campaign,
                                      country: hit.country, os: hit.os, browser: hit.browser, device: hit.device)
            if rollup?.key != rollupKey {
                if let run = rollup {
                    rollups[run.key, default: Rollup()].add(hits: run.hits, visitors: runVisitors)
                    runVisitors.removeAll(keepingCapacity: true)
                }
                rollup = (rollupKey, 0)
            }
            rollup!.hits += 1
            // One visitor's requests come in runs too: a hash is added once per run of them.
            if let hash = hit.visitorHash, hash != runVisitors.last {
                runVisitors.append(hash)
            }
            let pathKey = TopKey(workspace: workspace, dimension: .path, hour: hour, hostname: hit.hostname, value: hit.path, outcome: outcome)
            if path?.key != pathKey {
                if let run = path { tops[run.key, default: TopCounts()].add(run.counts) }
                path = (pathKey, TopCounts())
            }
            path!.counts.add(hit)
            if let referrer = hit.referrerHost, !referrer.isEmpty {
                tops[TopKey(workspace: workspace, dimension: .referrer, hour: hour, hostname: hit.hostname, value: referrer, outcome: outcome),
                     default: TopCounts()].add(hit)
            }
        }
        if let run = rollup { rollups[run.key, default: Rollup()].add(hits: run.hits, visitors: runVisitors) }
        if let run = path { tops[run.key, default: TopCounts()].add(run.counts) }
    }

    static func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    /// Appends the summary to the pending tables, `hit_rollups_pending` and `hit_top_pending`, which `HitFold` soon
    /// moves into the cubes and the top-value tables (migrations 0024 and 0026). Appending locks no row a fold or
    /// another node's batch could wait for, and the fold groups the rows: those of one key from several batches count
    /// alike, in the fold and in the reads that add the pending rows. NUL bytes, which libpq cannot send, are removed
    /// from the text here, once per row rather than once per hit (`Hit.clean`; `HitCopyData` removes them from the hits).
    /// - Parameter pacing: the batch's pacing, applied between two statements (`HitStore.write`).
    func append(on connection: Connection, pacing: HitPacing = .fullSpeed) throws {
        if !rollups.isEmpty {
            let rows = Array(rollups)
            // Each row's visitor hashes go as (row number, hash) pairs, folded into one sketch per row.
            var visitorRows: [Int32] = [], visitorHashes: [String] = []
            for (index, row) in rows.enumerated() {
                for hash in row.value.visitors {
                    visitorRows.append(Int32(index + 1))
                    visitorHashes.append(Hit.clean(hash))
                }
            }
            try connection.execute(Query(unsafeSQL: """
                WITH sketches AS (
                    SELECT i, hll_add_agg(hll_hash_text(v)) AS sketch FROM unnest($23::int4[], $24::text[]) AS x(i, v) GROUP BY i
                )
                INSERT INTO hit_rollups_pending
                    (workspace_id, hour, hostname, app_id, rule_id, destination_type, outcome, platform, source, is_bot, served,
                     link_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, os, browser, device, hits, visitors)
                SELECT w::uuid, to_timestamp(h * 3600), host, NULLIF(a, '')::uuid, NULLIF(ru, '')::uuid, NULLIF(d, ''), o, p, s, b::bool,
                       NULLIF(sv, ''), NULLIF(l, '')::uuid, NULLIF(us, ''), NULLIF(um, ''), NULLIF(uc, ''), NULLIF(ut, ''), NULLIF(ux, ''),
                       NULLIF(co, ''), NULLIF(os, ''), NULLIF(br, ''), NULLIF(dv, ''), n, coalesce(sketches.sketch, hll_empty())
                FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                            $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[],
                            $17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::int8[]) WITH ORDINALITY
                     AS t(w, h, host, a, ru, d, o, p, s, b, sv, l, us, um, uc, ut, ux, co, os, br, dv, n, i)
                LEFT JOIN sketches USING (i)
                """, binds: [
                    rows.map { $0.key.workspace.canonicalText }, rows.map(\.key.hour), rows.map { Hit.clean($0.key.hostname) },
                    rows.map { $0.key.app.map(\.canonicalText) ?? "" }, rows.map { $0.key.rule.map(\.canonicalText) ?? "" },
                    rows.map { Hit.clean($0.key.destinationType ?? "") }, rows.map(\.key.outcome.rawValue), rows.map(\.key.platform.rawValue),
                    rows.map(\.key.source.rawValue), rows.map { $0.key.isBot ? "t" : "f" }, rows.map { $0.key.served?.rawValue ?? "" },
                    // Campaign values are never empty (`Hit.Campaign`): "" stands for NULL, as for the other columns.
                    rows.map { $0.key.link.map(\.canonicalText) ?? "" },
                    rows.map { $0.key.campaign?.source ?? "" }, rows.map { $0.key.campaign?.medium ?? "" },
                    rows.map { $0.key.campaign?.campaign ?? "" }, rows.map { $0.key.campaign?.term ?? "" },
                    rows.map { $0.key.campaign?.content ?? "" }, rows.map { Hit.clean($0.key.country ?? "") }, rows.map { Hit.clean($0.key.os ?? "") },
                    rows.map { Hit.clean($0.key.browser ?? "") }, rows.map { $0.key.device?.rawValue ?? "" }, rows.map(\.value.hits),
                    visitorRows, visitorHashes,
                ]))
        }
        if !tops.isEmpty {
            pacing.pauseBetweenStatements()
            let rows = Array(tops)
            try connection.execute(Query(unsafeSQL: """
                INSERT INTO hit_top_pending (workspace_id, dimension, hour, hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click)
                SELECT w::uuid, dim, to_timestamp(h * 3600), host, v, o, hr, hc, br, bc
                FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::text[], $7::int8[], $8::int8[], $9::int8[], $10::int8[])
                    AS t(w, dim, h, host, v, o, hr, hc, br, bc)
                """, binds: [
                    rows.map { $0.key.workspace.canonicalText }, rows.map(\.key.dimension.rawValue), rows.map(\.key.hour),
                    rows.map { Hit.clean($0.key.hostname) }, rows.map { Hit.clean($0.key.value) }, rows.map(\.key.outcome.rawValue), rows.map(\.value.humanResolve),
                    rows.map(\.value.humanClick), rows.map(\.value.botResolve), rows.map(\.value.botClick),
                ]))
        }
    }
}
