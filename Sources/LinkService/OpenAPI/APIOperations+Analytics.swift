extension APIOperations {
    /// The parameters every analytics endpoint takes (see `AnalyticsParameters`).
    static let analyticsParameters: [QueryParameter] = [
        QueryParameter("from", Schema.string(maxLength: 40), "Start: RFC 3339 or a date in `tz` (default: 7 days before `to`); rounded down to the hour."),
        QueryParameter("to", Schema.string(maxLength: 40), "End, exclusive: RFC 3339 or a date in `tz` (that whole day; default now); rounded up to the hour."),
        QueryParameter("tz", Schema.string(maxLength: 64), "IANA time zone for day buckets and dates (default UTC)."),
        QueryParameter("host", APISchemas.hostname, "Only hits on this link domain."),
        QueryParameter("app", .uuid, "Only hits of this app."),
        QueryParameter("outcome", .enumeration(["open_app", "excluded", "no_match", "unknown_domain", "invalid_param"]), "Only hits with this outcome."),
        QueryParameter("source", .enumeration(["resolve", "click"]), "Only resolves or only clicks."),
        QueryParameter("includeBots", .enumeration(["true", "false"]), "Count crawlers, link-preview fetchers and HEAD requests too (default false)."),
        QueryParameter("format", .enumeration(["json", "csv"]), "`csv` answers text/csv (as does `Accept: text/csv`)."),
    ]

    static let analytics: [APIOperation] = [
        APIOperation(.GET, "/v1/analytics/timeseries", "analyticsTimeseries", "Hits per hour or day, optionally grouped", tag: "Analytics",
                     access: .key(.read),
                     query: analyticsParameters + [
                        QueryParameter("interval", .enumeration(["hour", "day"]), "Bucket size (default day; hour covers at most 31 days)."),
                        QueryParameter("groupBy", .enumeration(["outcome", "platform", "destination", "rule", "host", "app", "source"]), "Split each bucket by this dimension."),
                     ],
                     success: .content(200, mediaType: "application/json", schema: Schema.anyObject.described(
                        "`{from, to, timeZone, includeBots, filters, interval, groupBy, total, buckets: [{start, total, groups?}]}`; CSV: start,group,hits."))),
        APIOperation(.GET, "/v1/analytics/top", "analyticsTop", "The most frequent paths, destinations, rules or referrers", tag: "Analytics",
                     access: .key(.read),
                     query: analyticsParameters + [
                        QueryParameter("dimension", .enumeration(["path", "destination", "rule", "referrer"]), "What to rank, e.g. `path` with `outcome=no_match`.", required: true),
                        QueryParameter("limit", Schema.integer(minimum: 1, maximum: 100), "How many (default 10)."),
                     ],
                     success: .content(200, mediaType: "application/json", schema: Schema.anyObject.described(
                        "`{…, dimension, items: [{host?|app?, path|destination|rule|referrer, hits}]}`; CSV: one row per item."))),
        APIOperation(.GET, "/v1/analytics/summary", "analyticsSummary", "Totals, unique visitors, bot share, per outcome", tag: "Analytics",
                     access: .key(.read), query: analyticsParameters,
                     success: .content(200, mediaType: "application/json", schema: Schema.anyObject.described(
                        "`{…, hits, botHits, botShare, uniqueVisitors, byOutcome, bySource, byPlatform}`; CSV: metric,value."))),
    ]
}
