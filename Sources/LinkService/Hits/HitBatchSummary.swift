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
        var target: String? = nil, variant: String? = nil
    }

    /// What a rollup row adds: its hits, and the distinct visitor hashes among them (a sketch in the table).
    struct Rollup: Equatable {
        var hits: Int64 = 0
        var visitors: Set<String> = []
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

        mutating func add(source: Hit.Source, isBot: Bool) {
            switch (isBot, source) {
            case (false, .resolve): humanResolve += 1
            case (false, .click), (false, .claim): humanClick += 1
            case (true, .resolve): botResolve += 1
            case (true, .click), (true, .claim): botClick += 1
            }
        }
    }

    /// The rollup rows in the order first counted, and each key's place among them: a hit counts into a row by
    /// its place, without the dictionary, when it falls in the same row as the hit before it.
    private(set) var rollupRows: [(key: RollupKey, value: Rollup)] = []
    private var rollupPlaces: [RollupKey: Int] = [:]
    /// The path and referrer rows alike.
    private(set) var topRows: [(key: TopKey, value: TopCounts)] = []
    private var topPlaces: [TopKey: Int] = [:]
    /// UTC days the batch touches (for its partitions).
    var days: Set<Int64> = []
    /// The campaigns each workspace's hour keeps (the writer's, plus what this summary admitted).
    var campaigns: HitCampaignLimit

    /// The rollup rows by key, to inspect a summary.
    var rollups: [RollupKey: Rollup] { Dictionary(uniqueKeysWithValues: rollupRows.lazy.map { ($0.key, $0.value) }) }
    /// The top-value rows by key, to inspect a summary.
    var tops: [TopKey: TopCounts] { Dictionary(uniqueKeysWithValues: topRows.lazy.map { ($0.key, $0.value) }) }

    /// An empty summary; `add(_:)` counts hits into it, their campaigns bounded by `campaigns`.
    init(campaigns: HitCampaignLimit = HitCampaignLimit()) {
        self.campaigns = campaigns
    }

    /// Aggregates `hits`.
    init(_ hits: [Hit], campaigns: HitCampaignLimit = HitCampaignLimit()) {
        self.campaigns = campaigns
        add(hits[...])
    }

    /// The rows the hit before counted into, and what it was counted as.
    private struct Run {
        var day = Int64.min
        var rollup: (key: RollupKey, place: Int)?
        var path: (key: TopKey, place: Int)?
        var visitor: String?
        /// The last campaign admitted and what it was counted as: the hits of one link share theirs, and those of
        /// one URL's query carry equal ones.
        var campaign: (original: Hit.Campaign, workspace: UUID, hour: Int64, counted: Hit.Campaign)?
    }

    /// Counts `hits` in. They are read in place: a copy of a hit would retain and release each of its strings.
    ///
    /// Consecutive hits of one rollup row or path (one link asked again and again, one visitor's requests) count
    /// into the row the hit before found, so the dictionaries hash a key once per run of them instead of once per hit.
    mutating func add(_ hits: ArraySlice<Hit>) {
        var run = Run()
        hits.withUnsafeBufferPointer { hits in
            for index in hits.indices { add(hits[index], run: &run) }
        }
    }

    /// Counts the array's `hits` in.
    mutating func add(_ hits: [Hit]) {
        add(hits[...])
    }

    private mutating func add(_ hit: borrowing Hit, run: inout Run) {
        let micros = hit.micros
        let hour = Self.floorDiv(micros, 3_600_000_000)
        let day = Self.floorDiv(micros, 86_400_000_000)
        if day != run.day {
            days.insert(day)
            run.day = day
        }
        guard let workspace = hit.workspaceID else { return }
        var campaign = hit.campaign
        if let original = campaign {
            if let last = run.campaign, last.original == original, last.workspace == workspace, last.hour == hour {
                campaign = last.counted
            } else {
                let counted = campaigns.admit(original, workspace: workspace, hour: hour)
                run.campaign = (original, workspace, hour, counted)
                campaign = counted
            }
        }
        let rollupKey = RollupKey(
            workspace: workspace, hour: hour, hostname: hit.hostname, app: hit.appID, rule: hit.ruleID,
            destinationType: hit.destinationType, outcome: hit.outcome, platform: hit.platform,
            source: hit.source, isBot: hit.isBot, served: hit.served, link: hit.linkID, campaign: campaign,
            country: hit.country, os: hit.os, browser: hit.browser, device: hit.device,
            target: hit.target, variant: hit.variant)
        let (rollup, sameRow) = Self.place(of: rollupKey, after: &run.rollup, in: &rollupPlaces, rows: &rollupRows, empty: Rollup())
        if !sameRow { run.visitor = nil }
        rollupRows[rollup].value.hits += 1
        // One visitor's requests come in runs too: a hash is inserted once per run of them.
        if let hash = hit.visitorHash, hash != run.visitor {
            rollupRows[rollup].value.visitors.insert(hash)
            run.visitor = hash
        }
        let pathKey = TopKey(
            workspace: workspace, dimension: .path, hour: hour, hostname: hit.hostname, value: hit.path, outcome: hit.outcome)
        let (path, _) = Self.place(of: pathKey, after: &run.path, in: &topPlaces, rows: &topRows, empty: TopCounts())
        topRows[path].value.add(source: hit.source, isBot: hit.isBot)
        if let referrer = hit.referrerHost, !referrer.isEmpty {
            let key = TopKey(
                workspace: workspace, dimension: .referrer, hour: hour, hostname: hit.hostname, value: referrer, outcome: hit.outcome)
            topRows[Self.place(of: key, in: &topPlaces, rows: &topRows, empty: TopCounts())].value.add(source: hit.source, isBot: hit.isBot)
        }
    }

    /// Where `key`'s row is: `last`'s place when the hit before counted into the same row (then `same` is true), else
    /// found or added (`place(of:in:rows:empty:)`) and kept in `last` for the next hit.
    private static func place<Key: Hashable, Value>(
        of key: Key, after last: inout (key: Key, place: Int)?, in places: inout [Key: Int],
        rows: inout [(key: Key, value: Value)], empty: Value
    ) -> (place: Int, same: Bool) {
        if let last, last.key == key { return (last.place, true) }
        let place = place(of: key, in: &places, rows: &rows, empty: empty)
        last = (key, place)
        return (place, false)
    }

    /// Where `key`'s row is in `rows`, appending an `empty` one when it has none; the key is hashed once either way.
    private static func place<Key: Hashable, Value>(
        of key: Key, in places: inout [Key: Int], rows: inout [(key: Key, value: Value)],
        empty: Value
    ) -> Int {
        let next = rows.count
        // The default subscript's modify accessor inserts `next` when the key is new.
        func read(_ place: inout Int) -> Int { place }
        let place = read(&places[key, default: next])
        if place == next { rows.append((key, empty)) }
        return place
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
        if !rollupRows.isEmpty {
            let rows = rollupRows
            // Each row's visitor hashes go as (row number, hash) pairs, folded into one sketch per row.
            var visitorRows: [Int32] = [], visitorHashes: [String] = []
            for (index, row) in rows.enumerated() {
                for hash in row.value.visitors {
                    visitorRows.append(Int32(index + 1))
                    visitorHashes.append(Hit.clean(hash))
                }
            }
            try connection.execute(
                Query(
                    unsafeSQL: """
                        WITH sketches AS (
                            SELECT i, hll_add_agg(hll_hash_text(v)) AS sketch FROM unnest($25::int4[], $26::text[]) AS x(i, v) GROUP BY i
                        )
                        INSERT INTO hit_rollups_pending
                            (workspace_id, hour, hostname, app_id, rule_id, destination_type, outcome, platform, source, is_bot, served,
                             link_id, utm_source, utm_medium, utm_campaign, utm_term, utm_content, country, os, browser, device, target, variant, hits, visitors)
                        SELECT w::uuid, to_timestamp(h * 3600), host, NULLIF(a, '')::uuid, NULLIF(ru, '')::uuid, NULLIF(d, ''), o, p, s, b::bool,
                               NULLIF(sv, ''), NULLIF(l, '')::uuid, NULLIF(us, ''), NULLIF(um, ''), NULLIF(uc, ''), NULLIF(ut, ''), NULLIF(ux, ''),
                               NULLIF(co, ''), NULLIF(os, ''), NULLIF(br, ''), NULLIF(dv, ''), NULLIF(tg, ''), NULLIF(vr, ''), n, coalesce(sketches.sketch, hll_empty())
                        FROM unnest($1::text[], $2::int8[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                                    $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[],
                                    $17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[], $24::int8[]) WITH ORDINALITY
                             AS t(w, h, host, a, ru, d, o, p, s, b, sv, l, us, um, uc, ut, ux, co, os, br, dv, tg, vr, n, i)
                        LEFT JOIN sketches USING (i)
                        """,
                    binds: [
                        rows.map { $0.key.workspace.canonicalText }, rows.map(\.key.hour), rows.map { Hit.clean($0.key.hostname) },
                        rows.map { $0.key.app.map(\.canonicalText) ?? "" }, rows.map { $0.key.rule.map(\.canonicalText) ?? "" },
                        rows.map { Hit.clean($0.key.destinationType ?? "") }, rows.map(\.key.outcome.rawValue),
                        rows.map(\.key.platform.rawValue),
                        rows.map(\.key.source.rawValue), rows.map { $0.key.isBot ? "t" : "f" }, rows.map { $0.key.served?.rawValue ?? "" },
                        // Campaign values are never empty (`Hit.Campaign`): "" stands for NULL, as for the other columns.
                        rows.map { $0.key.link.map(\.canonicalText) ?? "" },
                        rows.map { $0.key.campaign?.source ?? "" }, rows.map { $0.key.campaign?.medium ?? "" },
                        rows.map { $0.key.campaign?.campaign ?? "" }, rows.map { $0.key.campaign?.term ?? "" },
                        rows.map { $0.key.campaign?.content ?? "" }, rows.map { Hit.clean($0.key.country ?? "") },
                        rows.map { Hit.clean($0.key.os ?? "") },
                        rows.map { Hit.clean($0.key.browser ?? "") }, rows.map { $0.key.device?.rawValue ?? "" },
                        // Target and variant names are never empty (docs/LINKS.md): "" stands for NULL.
                        rows.map { Hit.clean($0.key.target ?? "") }, rows.map { Hit.clean($0.key.variant ?? "") }, rows.map(\.value.hits),
                        visitorRows, visitorHashes,
                    ]))
        }
        if !topRows.isEmpty {
            pacing.pauseBetweenStatements()
            let rows = topRows
            try connection.execute(
                Query(
                    unsafeSQL: """
                        INSERT INTO hit_top_pending (workspace_id, dimension, hour, hostname, value, outcome, human_resolve, human_click, bot_resolve, bot_click)
                        SELECT w::uuid, dim, to_timestamp(h * 3600), host, v, o, hr, hc, br, bc
                        FROM unnest($1::text[], $2::text[], $3::int8[], $4::text[], $5::text[], $6::text[], $7::int8[], $8::int8[], $9::int8[], $10::int8[])
                            AS t(w, dim, h, host, v, o, hr, hc, br, bc)
                        """,
                    binds: [
                        rows.map { $0.key.workspace.canonicalText }, rows.map(\.key.dimension.rawValue), rows.map(\.key.hour),
                        rows.map { Hit.clean($0.key.hostname) }, rows.map { Hit.clean($0.key.value) }, rows.map(\.key.outcome.rawValue),
                        rows.map(\.value.humanResolve),
                        rows.map(\.value.humanClick), rows.map(\.value.botResolve), rows.map(\.value.botClick),
                    ]))
        }
    }
}
