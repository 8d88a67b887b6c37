import Foundation

/// One of the rollups the analytics read: the hits and unique visitors of every combination of a few dimensions,
/// per hour (`hit_cubes_hourly`) and per UTC day (`hit_cubes_daily`, the day being counted included), besides source
/// and bot flag, which every cube keeps. A cube's dimensions go in the tables' text slots `d1`…`d8` in the order listed.
/// The audience cubes (a link's or a campaign's visitors by country and device) count per UTC day only: with
/// links × countries × devices their hourly rows would be about as many as the hits.
///
/// Each cube is narrow so that its rows stay far fewer than the hits: one rollup keyed by every dimension has about
/// as many rows as there are hits once real traffic's countries, agents, links and campaigns vary. A read uses the
/// first cube (they are listed smallest first) that keeps every dimension it filters or groups by; a combination no
/// cube keeps is refused (docs/HITS.md, "Analytics API").
public struct AnalyticsCube: Equatable, Sendable {
    /// A dimension the cubes can keep: named as the analytics API names it.
    enum Dimension: String, CaseIterable, Sendable {
        case host, app, rule, destination, outcome, platform, served, device, country, os, browser, link
        case utmSource = "utm_source", utmMedium = "utm_medium", utmCampaign = "utm_campaign", utmTerm = "utm_term", utmContent =
            "utm_content"
        /// The target and the variant of a targeted link that decided a hit (their names, meaningful with the link).
        case target, variant

        /// The dimension of a campaign field.
        init(_ field: Hit.Campaign.Field) {
            self = [.source: .utmSource, .medium: .utmMedium, .campaign: .utmCampaign, .term: .utmTerm, .content: .utmContent][field]!
        }

        /// Its column in `hits` and in `hit_rollups_pending`.
        var column: String {
            switch self {
            case .host: "hostname"
            case .app: "app_id"
            case .rule: "rule_id"
            case .destination: "destination_type"
            case .link: "link_id"
            default: rawValue
            }
        }

        /// Its column in `hits`, as text: what a cube's slot holds.
        var hitsColumn: String {
            switch self {
            case .app, .rule, .link: "\(column)::text"
            default: column
            }
        }
    }

    /// Its number in the tables' `cube` column.
    let id: Int16
    let name: String
    let dimensions: [Dimension]
    /// Whether it has hourly rows; else only daily ones, written by every fold (reads are in whole UTC days).
    public internal(set) var hourly = true

    /// The slot column (`d1`…) holding `dimension`, nil when the cube does not keep it.
    func slot(_ dimension: Dimension) -> String? {
        dimensions.firstIndex(of: dimension).map { "d\($0 + 1)" }
    }

    /// The text slots of the tables.
    public static let slots = 8

    /// Smallest first: a read takes the first that keeps what it needs.
    public static let all: [AnalyticsCube] = [
        AnalyticsCube(id: 11, name: "countries", dimensions: [.country]),
        AnalyticsCube(id: 10, name: "destinations", dimensions: [.app, .destination]),
        AnalyticsCube(id: 9, name: "outcomes", dimensions: [.outcome, .platform, .served, .device]),
        AnalyticsCube(id: 1, name: "traffic", dimensions: [.host, .app, .rule, .destination, .outcome, .platform, .served, .device]),
        AnalyticsCube(id: 2, name: "visitors", dimensions: [.country, .os, .browser, .device, .platform]),
        AnalyticsCube(id: 3, name: "campaigns", dimensions: [.utmSource, .utmMedium, .utmCampaign, .utmTerm, .utmContent]),
        AnalyticsCube(id: 8, name: "links", dimensions: [.link, .host]),
        AnalyticsCube(id: 13, name: "link browsers", dimensions: [.link, .host, .browser]),
        AnalyticsCube(id: 12, name: "link traffic", dimensions: [.link, .host, .app, .destination, .outcome, .platform, .served]),
        AnalyticsCube(
            id: 4, name: "link campaigns", dimensions: [.link, .host, .utmSource, .utmMedium, .utmCampaign, .utmTerm, .utmContent]),
        AnalyticsCube(
            id: 5, name: "campaign traffic",
            dimensions: [.utmCampaign, .utmSource, .utmMedium, .app, .destination, .outcome, .platform, .served]),
        AnalyticsCube(
            id: 6, name: "campaign audience", dimensions: [.country, .os, .device, .utmSource, .utmMedium, .utmCampaign], hourly: false),
        AnalyticsCube(id: 7, name: "link audience", dimensions: [.link, .host, .country, .os, .device, .platform], hourly: false),
        AnalyticsCube(id: 14, name: "link targets", dimensions: [.link, .host, .target, .variant, .outcome, .platform, .served]),
        AnalyticsCube(
            id: 15, name: "target audience", dimensions: [.link, .host, .target, .variant, .country, .os, .device, .platform], hourly: false
        ),
    ]

    /// The first cube keeping every one of `dimensions`.
    static func covering(_ dimensions: Set<Dimension>) -> AnalyticsCube? {
        all.first { dimensions.isSubset(of: $0.dimensions) }
    }

    /// Why `dimensions` cannot be read together: a 400's detail, with the combinations that can.
    static func refusal(_ dimensions: Set<Dimension>) -> String {
        let asked = dimensions.map(\.rawValue).sorted().joined(separator: ", ")
        let kept = all.map { "(\($0.dimensions.map(\.rawValue).joined(separator: ", ")))" }.joined(separator: "; ")
        return "The analytics do not keep \(asked) together: filters and grouping must all come from one of these combinations "
            + "(besides source and includeBots): \(kept)."
    }

    /// `VALUES` of one row per cube from the columns of `alias` (a hit, or a row keyed as a hit is): its number and
    /// its slots' values, named `c(cube, d1, …)`, for `CROSS JOIN LATERAL`.
    static func values(of alias: String, cubes: [AnalyticsCube] = all) -> String {
        let rows = cubes.map { cube in
            let values = (0..<slots).map { $0 < cube.dimensions.count ? "\(alias).\(cube.dimensions[$0].hitsColumn)" : "NULL::text" }
            return "(\(cube.id)::int2, \(values.joined(separator: ", ")))"
        }
        return "(VALUES \(rows.joined(separator: ", "))) AS c(cube, \(slotList))"
    }

    /// The columns of every dimension a cube keeps, as `hits` and `hit_rollups_pending` name them: `hostname, app_id, …`.
    static let dimensionColumns = Dimension.allCases.map(\.column).joined(separator: ", ")

    /// The ids of the cubes with hourly rows, as a SQL list.
    public static let hourlyIDs = all.filter(\.hourly).map { String($0.id) }.joined(separator: ", ")

    /// `d1, d2, …`.
    public static let slotList = (1...slots).map { "d\($0)" }.joined(separator: ", ")

    /// `SELECT` of the rows of the cubes with hourly rows, per hour, or with `daily` of every cube, per UTC day (or of
    /// `cubes`), from the hits matching `condition` (a condition on `hits`): the rollups the writer and its folds would
    /// have made of them (campaigns unbounded). Columns as `hit_cubes_hourly`'s (or `_daily`'s but `visitors_count`).
    public static func rollupSQL(
        from hits: String = "hits", where condition: String = "TRUE", daily: Bool = false,
        cubes: [AnalyticsCube]? = nil
    ) -> String {
        """
        SELECT h.workspace_id, c.cube, \(daily ? "(h.time AT TIME ZONE 'UTC')::date" : "date_trunc('hour', h.time)"), h.source, h.is_bot,
               \((1...slots).map { "c.d\($0)" }.joined(separator: ", ")), count(*)::int8, coalesce(hll_add_agg(hll_hash_text(h.visitor_hash)), hll_empty())
        FROM \(hits) h CROSS JOIN LATERAL \(values(of: "h", cubes: cubes ?? (daily ? all : all.filter(\.hourly))))
        WHERE h.workspace_id IS NOT NULL AND (\(condition))
        GROUP BY 1, 2, 3, 4, 5, \((6...(5 + slots)).map(String.init).joined(separator: ", "))
        """
    }
}
