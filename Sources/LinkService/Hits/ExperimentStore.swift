import Foundation
import Postgres

/// The SQL of a link's experiment view (`GET /v1/links/{id}/experiment`): per target and variant, the visitors who
/// clicked and their clicks, from the raw hits kept (`LINKD_HITS_RETENTION_DAYS`), since the comparison needs each
/// visitor's clicks, which no rollup keeps. Clicks by people only (no bots, resolves or claims: a claim repeats the
/// click it follows); a visitor is a visitor hash, which changes every UTC day (docs/HITS.md, "Visitors"), so the unit
/// is a visitor-day. The partial index of `migrations/0032` holds the hits with a variant only.
enum ExperimentStore {
    /// One variant's figures: visitors, their clicks, and the sum of each visitor's clicks squared (for the variance).
    struct Arm: Equatable {
        var target: String?
        var variant: String
        var visitors: Int
        var clicks: Int
        var squares: Int
    }

    /// The arms of `link`'s hits that recorded a variant.
    static func arms(link: UUID, workspace: UUID, on connection: Connection) throws -> [Arm] {
        try connection.query(
            Query(
                unsafeSQL: """
                    SELECT target, variant, count(*)::int8, sum(c)::int8, sum(c * c)::int8 FROM (
                        SELECT target, variant, visitor_hash, count(*) AS c FROM hits
                        WHERE link_id = $2 AND variant IS NOT NULL AND workspace_id = $1 AND source = 'click' AND NOT is_bot
                              AND visitor_hash IS NOT NULL
                        GROUP BY target, variant, visitor_hash
                    ) v
                    GROUP BY target, variant
                    ORDER BY target NULLS FIRST, variant
                    """, binds: [workspace, link])
        ).map { row in
            let (target, variant, visitors, clicks, squares) = try row.decode((String?, String, Int, Int, Int).self)
            return Arm(target: target, variant: variant, visitors: visitors, clicks: clicks, squares: squares)
        }
    }
}
