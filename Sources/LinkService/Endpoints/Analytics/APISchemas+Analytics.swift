import Foundation
import LinkKit

/// The components of the analytics endpoints (`OpenAPIDocument`): the JSON answers as `AnalyticsHandlers` writes
/// them, each starting with the echo of the question (`AnalyticsParameters.jsonMembers`).
extension APISchemas {
    static var analytics: [(name: String, schema: Schema)] {
        [
            (
                "TimeZone",
                Schema.enumeration(["UTC"] + TimeZone.knownTimeZoneIdentifiers.sorted())
                    .described("An IANA time zone this server knows (its tz database).").example("Europe/Paris")
            ),
            (
                "AnalyticsFilters",
                Schema.object(
                    ["host", "app", "outcome", "served", "link", "target", "variant"].map { .optional($0, Schema.string) }
                        + (Hit.Campaign.Field.allCases.map(\.rawValue) + AnalyticsStore.VisitorField.allCases.map(\.rawValue))
                        .map { .optional($0, Schema.string) },
                    closed: false
                ).described("The filters the question named, as read (a host in lower case).")
            ),
            (
                "AnalyticsSummary",
                Schema.object(
                    echo + [
                        .required("hits", count.described("Hits matching the filters (bots only with `includeBots`).")),
                        .required("botHits", count.described("Hits of bots matching the filters, whatever `includeBots` says.")),
                        .required(
                            "botShare",
                            Schema([
                                JSONMember(key: "type", value: .string("number")), JSONMember(key: "minimum", value: .integer(0)),
                                JSONMember(key: "maximum", value: .integer(1)),
                            ]).described("`botHits` over all hits, 0 when there are none.")),
                        .required(
                            "uniqueVisitors", count.described("The sum over the UTC days of the range of each day's distinct visitors.")),
                        .required(
                            "byOutcome",
                            Schema.ref("AnalyticsOutcomeCounts").nullable.described(
                                "Hits per outcome; null when the filters leave no count that keeps it.")),
                        .required("bySource", Schema.ref("AnalyticsSourceCounts")),
                        .required(
                            "byPlatform",
                            Schema.ref("AnalyticsPlatformCounts").nullable.described("Hits per platform; null as `byOutcome`.")),
                        .required(
                            "byServed",
                            Schema.ref("AnalyticsServedCounts").nullable.described(
                                "Clicks per what they got (docs/HITS.md, \"What a visitor was served\"; resolves are served nothing and count in none); null as `byOutcome`."
                            )),
                        .optional(
                            "previous",
                            Schema.object(
                                [.required("hits", count), .required("botHits", count), .required("uniqueVisitors", count)], closed: false
                            )
                            .described("With `compare=previous`: the previous period's figures.")),
                    ], closed: false
                ).described("Totals, bot share and unique visitors, per outcome, source, platform and what clicks got.")
            ),
            ("AnalyticsOutcomeCounts", countsObject(Hit.Outcome.allCases.map(\.rawValue))),
            ("AnalyticsSourceCounts", countsObject(Hit.Source.allCases.map(\.rawValue))),
            ("AnalyticsPlatformCounts", countsObject(DevicePlatform.allCases.map(\.rawValue))),
            ("AnalyticsServedCounts", countsObject(Hit.Served.allCases.map(\.rawValue))),
            (
                "AnalyticsTimeseries",
                Schema.object(
                    echo + [
                        .required("interval", Schema.enumeration(["hour", "day"])),
                        .required("groupBy", Schema.enumeration(AnalyticsStore.groupings).nullable),
                        .required("total", count),
                        .required("visitors", count.described("The sum of the daily unique visitors over the range.")),
                        .optional(
                            "names",
                            Schema.map(.ref("AnalyticsName")).described(
                                "With `groupBy` an id (app, rule, link, destination): what names each group, by group.")),
                        .optional(
                            "previous",
                            Schema.object([.required("total", count), .required("visitors", count)], closed: false)
                                .described("With `compare=previous`: the previous period's figures.")),
                        .required(
                            "buckets",
                            Schema.array(.ref("AnalyticsBucket")).described("One bucket per hour or day, empty ones included, in order.")),
                    ], closed: false
                ).described("Hits per hour or day, optionally grouped.")
            ),
            (
                "AnalyticsBucket",
                Schema.object(
                    [
                        .required("start", instant),
                        .required("total", count),
                        .required("visitors", count),
                        .optional("groups", Schema.map(count).described("With `groupBy`: hits per group (`(none)` for hits without one).")),
                        .optional("groupVisitors", Schema.map(count).described("With `groupBy`: unique visitors per group.")),
                    ], closed: false)
            ),
            (
                "AnalyticsName",
                Schema.object(nameProperties, closed: false)
                    .described(
                        "What names an id: an app's `name` and `platform`, a rule's `path` and `position`, a link's `slug`, a destination type's `title` with its app's `appName` and `appPlatform`."
                    )
            ),
            (
                "AnalyticsTop",
                Schema.object(
                    echo + [
                        .required("dimension", Schema.enumeration(["path", "referrer"] + AnalyticsStore.rollupDimensions.keys.sorted())),
                        .required("sort", Schema.enumeration(AnalyticsStore.Ranking.allCases.map(\.rawValue))),
                        .required("items", Schema.array(.ref("AnalyticsTopItem")).described("The most frequent values first.")),
                        .required(
                            "total",
                            Schema.ref("AnalyticsFigures").described(
                                """
                                Every hit matching the filters and their unique visitors (the summary's `hits` and `uniqueVisitors`): the items' \
                                hits, `unknown.hits` and `others.hits` add up to `total.hits`.
                                """)),
                        .required(
                            "unknown",
                            Schema.ref("AnalyticsFigures").described(
                                """
                                The hits without a value (no country known, a tap without a campaign or link, a URL no rule decided; for \
                                `referrer`, hits without one), with their visitors (not for `path` and `referrer`).
                                """)),
                        .required(
                            "others",
                            Schema.object(
                                [
                                    .required("hits", count.described("Hits of the values not listed (beyond `limit`).")),
                                    .required("values", count.described("How many values are not listed.")),
                                ], closed: false
                            ).described("What the list leaves out beyond `limit`.")),
                        .required(
                            "visitorsAddUp",
                            Schema.boolean.described(
                                """
                                Whether every visitor is in one row only (`country`, `os`, `browser`, `device`: what the daily visitor hash is \
                                made of), so that the items' and `unknown`'s visitors add up to `total.visitors` (within the sketches' \
                                precision). Otherwise a visitor can be in several rows (two links tapped, two campaigns) and they add up \
                                to more.
                                """)),
                    ], closed: false
                ).described("The most frequent values of a dimension, with what they leave out.")
            ),
            (
                "LinkExperiment",
                Schema.object(
                    [
                        .required("link", Schema.ref("BulkCreatedLink")),
                        .required("source", Schema.constant("click")),
                        .required(
                            "unit",
                            Schema.constant("visitor-day").described("A visitor is a daily visitor hash (docs/HITS.md, \"Visitors\").")),
                        .required(
                            "method",
                            Schema.object(
                                [
                                    .required("metric", Schema.constant("clicksPerVisitor")),
                                    .required(
                                        "interval",
                                        Schema.string.described(
                                            "How `difference` is computed, and what it assumes (docs/HITS.md, \"Experiments\").")),
                                    .required("confidence", Schema.number),
                                    .required(
                                        "minimumVisitors",
                                        Schema.integer(minimum: 1).described(
                                            "Visitors each of the variant and the control need for an interval.")),
                                ], closed: false)),
                        .required("experiments", Schema.array(.ref("LinkExperimentGroup"))),
                    ], closed: false
                ).described("A link's experiments, per variant, from the raw hits kept.")
            ),
            (
                "LinkExperimentGroup",
                Schema.object(
                    [
                        .required("target", Schema.string.nullable.described("The target carrying the variants; null: the link's own.")),
                        .required("label", Schema.string),
                        .required("variants", Schema.array(.ref("LinkExperimentVariant")).described("The control first.")),
                    ], closed: false)
            ),
            (
                "LinkExperimentVariant",
                Schema.object(
                    [
                        .required("name", Schema.string),
                        .required("label", Schema.string.described("`spring24 · Germany (target) · B (variant)`.")),
                        .required("control", Schema.boolean),
                        .required(
                            "configured", Schema.boolean.described("False for a variant only the hits still name (removed or renamed).")),
                        .required("stopped", Schema.boolean),
                        .required("weight", Schema.integer(minimum: 0).nullable),
                        .required("visitors", count.described("Visitor-days who clicked.")),
                        .required("clicks", count),
                        .required("clicksPerVisitor", Schema.number.nullable),
                        .required(
                            "difference",
                            Schema.object(
                                [
                                    .required("estimate", Schema.number), .required("low", Schema.number), .required("high", Schema.number),
                                ], closed: false
                            ).nullable.described("Clicks per visitor minus the control's, with the bounds of its 95 % confidence interval.")
                        ),
                        .required(
                            "differenceUnavailable",
                            Schema.string.nullable.described("Why there is no `difference` (the control; too few visitors; no variation).")),
                        .required(
                            "conversions",
                            Schema.ref("LinkExperimentConversions").described(
                                "The events attributed to the variant's clicks: per step, its count and its rate per click.")),
                    ], closed: false)
            ),
            (
                "LinkExperimentConversions",
                Schema.object(
                    [
                        .required(
                            "steps",
                            Schema.array(
                                Schema.object(
                                    [
                                        .required("step", Schema.string.described("`install`, `open` or a named event.")),
                                        .required("count", count),
                                        .required(
                                            "rate",
                                            Schema.number.nullable.described("Events per click of the variant; null without clicks.")),
                                        .required(
                                            "interval",
                                            Schema.object(
                                                [.required("low", Schema.number), .required("high", Schema.number)], closed: false
                                            ).nullable.described(
                                                "The rate's 95 % Wilson score interval; null when the rate is no proportion (no clicks, or more events than clicks)."
                                            )),
                                    ], closed: false))),
                        .required("revenue", Schema.array(.ref("FunnelRevenue"))),
                    ], closed: false)
            ),
            (
                "AnalyticsFunnel",
                Schema.object(
                    echo + [
                        .required(
                            "groupBy", Schema.enumeration(EventFunnelStore.Dimension.allCases.map(\.rawValue).sorted()).nullable),
                        .required(
                            "steps",
                            Schema.array(Schema.string).described(
                                "`clicks`, `install`, `open`, then the named events, most frequent first.")),
                        .required("total", Schema.ref("FunnelFigures")),
                        .optional(
                            "groups",
                            Schema.array(.ref("FunnelFigures")).described(
                                "With `groupBy`: per value (`value`; a link's `slug`), by clicks, the events without a value (`value: null`) last."
                            )),
                    ], closed: false
                ).described("A funnel over whole UTC days: clicks from the hits, events from their rollups (docs/EVENTS.md, \"Funnels\").")
            ),
            (
                "FunnelFigures",
                Schema.object(
                    [
                        .optional("value", Schema.string.nullable.described("In `groups`: the group's value.")),
                        .optional("slug", Schema.string.described("In `groups` by link: the link's slug.")),
                        .required(
                            "steps",
                            Schema.array(
                                Schema.object(
                                    [
                                        .required("step", Schema.string), .required("count", count),
                                        .required(
                                            "rate",
                                            Schema.number.nullable.described(
                                                "The count over the previous step's; null for clicks or after a zero.")),
                                        .optional("revenue", Schema.array(.ref("FunnelRevenue"))),
                                    ], closed: false))),
                        .required("reopens", count.described("`reopen` events, apart from the steps.")),
                        .required("revenue", Schema.array(.ref("FunnelRevenue")).described("The steps' values per currency.")),
                    ], closed: false)
            ),
            (
                "FunnelRevenue",
                Schema.object(
                    [
                        .required("currency", Schema.string(pattern: "^[A-Z]{3}$")),
                        .required("value", Schema.integer.described("The sum of the values, in minor units.")),
                        .required("events", count.described("The events with a value in this currency.")),
                    ], closed: false)
            ),
            (
                "AnalyticsFigures",
                Schema.object(
                    [
                        .required("hits", count),
                        .optional(
                            "visitors", count.described("Unique visitors: the sum over the UTC days of each day's distinct visitors.")),
                    ], closed: false)
            ),
            (
                "AnalyticsTopItem",
                Schema.object(topItemProperties, closed: false).described(
                    """
                    A value of the dimension, under the dimension's name (`path`, `utm_campaign`, ...), with its context (`host`, or `app` for \
                    a destination) and, for ids, what names them (null when the id is gone).
                    """)
            ),
        ]
    }

    /// The echo of the question every analytics answer starts with.
    private static var echo: [Schema.Property] {
        [
            .required("from", instant),
            .required("to", instant.described("Exclusive.")),
            .required("timeZone", Schema.string.described("The `tz` asked (default UTC).")),
            .required("period", Schema.enumeration(AnalyticsParameters.Period.allCases.map(\.rawValue)).nullable),
            .required("includeBots", Schema.boolean),
            .required("source", Schema.enumeration(["click", "resolve", "claim", "all"])),
            .optional("previousFrom", instant.described("With `compare=previous`: where the previous period starts.")),
            .optional("previousTo", instant.described("With `compare=previous`: where it ends (this range's `from`).")),
            .required("filters", Schema.ref("AnalyticsFilters")),
        ]
    }

    /// A time in `tz` (RFC 3339 with the zone's offset).
    private static var instant: Schema { Schema.string(format: "date-time") }

    private static var count: Schema { Schema.integer(minimum: 0) }

    /// Every value of a breakdown, each with its count.
    private static func countsObject(_ keys: [String]) -> Schema {
        Schema.object(keys.map { .required($0, count) }, closed: false)
    }

    /// What `AnalyticsStore.names` answers, each member null when the named thing is gone.
    private static var nameProperties: [Schema.Property] {
        [
            .optional("name", Schema.string.nullable),
            .optional("path", Schema.string.nullable),
            .optional("position", Schema.integer(minimum: 0).nullable),
            .optional("slug", Schema.string.nullable),
            .optional(
                "label",
                Schema.string.nullable.described(
                    "A target's or variant's name with its link's: `spring24 · Germany (target) · B (variant)`.")),
            .optional("title", Schema.string.nullable),
            .optional("platform", Schema.enumeration(["ios", "android"]).nullable.described("An app's platform.")),
            .optional("appName", Schema.string.nullable.described("A destination type's app: its name.")),
            .optional("appPlatform", Schema.enumeration(["ios", "android"]).nullable.described("A destination type's app: its platform.")),
        ]
    }

    /// A top item's members: the context, the ranked value (under the dimension's name), the names, the figures.
    private static var topItemProperties: [Schema.Property] {
        let names = Set(nameProperties.map(\.name))
        let dimensions = (["host", "app", "referrer"] + AnalyticsStore.rollupDimensions.keys.sorted()).filter { !names.contains($0) }
        var seen = Set<String>()
        return dimensions.filter { seen.insert($0).inserted }.map { .optional($0, Schema.string) } + nameProperties + [
            .required("hits", count),
            .optional("visitors", count.described("Not for `path` and `referrer`, which keep no visitors.")),
            .optional("previousHits", count.described("With `compare=previous`.")),
            .optional("previousVisitors", count.described("With `compare=previous`, where `visitors` is.")),
        ]
    }
}
