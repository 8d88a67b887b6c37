extension APIOperations {
    /// The parameters every analytics endpoint takes (see `AnalyticsParameters`).
    static let analyticsParameters: [QueryParameter] = [
        QueryParameter("from", instant, "Start: RFC 3339 or a date in `tz` (default: 7 days before `to`); rounded down to the hour. Must be before `to`, at most \(AnalyticsParameters.maxDays) days before it, and not before 1970 (UTC)."),
        QueryParameter("to", instant, "End, exclusive: RFC 3339 or a date in `tz` (that whole day; default now); rounded up to the hour."),
        QueryParameter("tz", Schema.ref("TimeZone"), "IANA time zone for day buckets and dates (default UTC)."),
        QueryParameter("host", Schema.string(maxLength: 253), "Only hits on this link domain."),
        QueryParameter("app", .uuid, "Only hits of this app."),
        QueryParameter("outcome", .enumeration(["open_app", "excluded", "no_match", "unknown_domain", "invalid_param"]), "Only hits with this outcome."),
        QueryParameter("source", .enumeration(["resolve", "click", "claim"]), "Only resolves, clicks or deferred-link claims."),
        QueryParameter("served", .enumeration(["landing", "redirect", "preview", "claim"]), "Only clicks that got this (the landing page, a redirect, the preview page bots get) or claims."),
        QueryParameter("includeBots", .enumeration(["true", "false"]), "Count crawlers, link-preview fetchers and HEAD requests too (default false)."),
        QueryParameter("format", .enumeration(["json", "csv"]), "`csv` answers text/csv (as does `Accept: text/csv`)."),
    ]

    /// `from` and `to`: an RFC 3339 timestamp or a date, from 1970 to 9999 (`AnalyticsParameters`).
    private static let instant = Schema.string(
        pattern: "^(19[7-9][0-9]|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]{1,9})?(Z|[+-](0[0-9]|1[0-7]):[0-5][0-9]))?$"
    ).example("2026-11-01T00:00:00Z")

    /// An analytics answer: JSON, or CSV (RFC 4180, with a header row) for `format=csv` or `Accept: text/csv`.
    private static func answer(json: String, csv: String) -> APIOperation.Success {
        .alternatives(200, [
            ("application/json", Schema.anyObject.described(json)),
            ("text/csv", Schema.string.described(csv + " Sent as `text/csv; charset=utf-8; header=present`.")),
        ])
    }

    static let analytics: [APIOperation] = [
        APIOperation(.GET, "/v1/analytics/timeseries", "analyticsTimeseries", "Hits per hour or day, optionally grouped", tag: "Analytics",
                     access: .key(.read),
                     query: analyticsParameters + [
                        QueryParameter("interval", .enumeration(["hour", "day"]), "Bucket size (default day; hour covers at most 31 days)."),
                        QueryParameter("groupBy", .enumeration(["outcome", "platform", "destination", "rule", "host", "app", "source", "served"]), "Split each bucket by this dimension."),
                     ],
                     success: answer(json: "`{from, to, timeZone, includeBots, filters, interval, groupBy, total, buckets: [{start, total, groups?}]}`.",
                                     csv: "`start,group,hits`, one row per bucket and group.")),
        APIOperation(.GET, "/v1/analytics/top", "analyticsTop", "The most frequent paths, destinations, rules or referrers", tag: "Analytics",
                     access: .key(.read),
                     query: analyticsParameters + [
                        QueryParameter("dimension", .enumeration(["path", "destination", "rule", "referrer", "served"]), "What to rank, e.g. `path` with `outcome=no_match`, or `destination` with `served=landing` and then `served=claim` (clicks and claims per destination).", required: true),
                        QueryParameter("limit", Schema.integer(minimum: 1, maximum: 100), "How many (default 10)."),
                     ],
                     success: answer(json: "`{…, dimension, items: [{host?|app?, path|destination|rule|referrer|served, hits}]}`.",
                                     csv: "A header row naming the columns, then one row per item.")),
        APIOperation(.GET, "/v1/analytics/summary", "analyticsSummary", "Totals, unique visitors, bot share, per outcome", tag: "Analytics",
                     access: .key(.read), query: analyticsParameters,
                     success: answer(json: "`{…, hits, botHits, botShare, uniqueVisitors, byOutcome, bySource, byPlatform, byServed}`.",
                                     csv: "`metric,value`, one row per figure.")),
    ]
}
