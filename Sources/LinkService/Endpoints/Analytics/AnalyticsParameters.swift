import Foundation
import HTTPServer
import LinkKit

/// The query parameters the analytics endpoints share: the time range, the time zone, the filters and
/// the output format. Every problem is a 400 with a detail naming the parameter.
///
/// - `from`, `to`: RFC 3339 timestamps (`2026-11-01T00:00:00Z`, `2026-11-01T09:00:00+01:00`) or dates
///   (`2026-11-01`, midnight in `tz`; a date `to` includes that whole day). `to` is exclusive. Defaults:
///   the last 7 days up to now. Rollups are hourly, so `from` is rounded down and `to` up to the hour. Both lie
///   in the dates every door accepts (`RFC3339.accepted`: 1970 to 9999, UTC; no hit is older, and a default
///   `from` before it starts there), a date `to` up to the end of 9999-12-31.
/// - `period`: instead of `from` and `to`, `today`, `yesterday`, `7d`, `30d` or `90d` (whole days in `tz`, the
///   last ones ending with today). `compare=previous` adds the period of the same length just before.
/// - `tz`: an IANA time zone (`Europe/Paris`), default `UTC`: day buckets, dates and periods follow it.
/// - `host`, `app` (an app id), `outcome`, `source` (`click`, the default: taps on links; `resolve`, `claim`, or
///   `all`), `served` (what a click got: `landing`|`redirect`|`preview`|`claim`), `link` (a stored link's id),
///   `utm_source`, `utm_medium`, `utm_campaign`, `utm_term`, `utm_content` (a campaign value, as hits keep it),
///   `country` (ISO 3166-1 alpha-2), `os`, `browser` (uap-core family names), `device` (a device class),
///   `includeBots` (`true`|`false`, default false).
struct AnalyticsParameters {
    static let maxDays = 400
    /// The range `from` and `to` must lie in: the dates every door accepts (`RFC3339.accepted`), `to` up to its end.
    static let earliest = RFC3339.accepted.lowerBound
    static let latest = RFC3339.accepted.upperBound

    static let fromParameter = QueryParameter(
        "from", instant,
        "Start: RFC 3339 or a date in `tz` (default: 7 days before `to`); rounded down to the hour. Must be before `to`, at most \(maxDays) days before it, and not before 1970 (UTC)."
    )
    static let toParameter = QueryParameter(
        "to", instant, "End, exclusive: RFC 3339 or a date in `tz` (that whole day; default now); rounded up to the hour.")
    static let tz = QueryParameter("tz", Schema.ref("TimeZone"), "IANA time zone for day buckets and dates (default UTC).")
    static let host = QueryParameter("host", Schema.string(maxLength: 253), "Only hits on this link domain.")
    static let app = QueryParameter("app", .uuid, "Only hits of this app.")
    static let outcome = QueryParameter("outcome", .enumeration(Hit.Outcome.allCases.map(\.rawValue)), "Only hits with this outcome.")
    static let period = QueryParameter(
        "period", .enumeration(Period.allCases.map(\.rawValue)),
        "Instead of from and to: today, yesterday, or the last 7, 30 or 90 days up to the end of today, whole days in `tz`.")
    static let compare = QueryParameter(
        "compare", .enumeration(["previous"]),
        "`previous`: the figures of the period of the same length just before, beside each figure.")
    static let source = QueryParameter(
        "source", .enumeration(["click", "resolve", "claim", "all"]),
        "Clicks on links (the default: taps people make), API resolves, deferred-link claims, or all of them.")
    static let country = QueryParameter(
        "country", Schema.string(pattern: "^[A-Z]{2}$").example("DE"),
        "Only taps from this country (ISO 3166-1 alpha-2, from the client address; needs `--geoip-db`).")
    static let os = QueryParameter(
        "os", Schema.string(minLength: 1, maxLength: 100).example("iOS"), "Only taps from this operating system family (uap-core's names).")
    static let browser = QueryParameter(
        "browser", Schema.string(minLength: 1, maxLength: 100).example("Mobile Safari"),
        "Only taps from this browser family (uap-core's names).")
    static let device = QueryParameter("device", .enumeration(deviceClasses), "Only taps from this class of device.")
    /// The device classes hits are counted under (docs/HITS.md).
    static let deviceClasses = Hit.Device.allCases.map(\.rawValue)
    static let served = QueryParameter(
        "served", .enumeration(Hit.Served.allCases.map(\.rawValue)),
        "Only clicks that got this (a phone's landing page, the desktop page, a redirect to the store, the link's web page or fallback, the web fallback, the preview page bots get, an expired link's or a 404 page; `redirect`: any redirect recorded before they were told apart) or claims."
    )
    static let link = QueryParameter("link", .uuid, "Only taps on this stored link (its id).")
    static let target = QueryParameter(
        "target", Schema.string(minLength: 1, maxLength: TextLimit.name.scalars).example("Germany"),
        "Only taps a link's target of this name decided (with `link`: one link's; docs/LINKS.md, \"Targeting and experiments\").")
    static let variant = QueryParameter(
        "variant", Schema.string(minLength: 1, maxLength: TextLimit.name.scalars).example("B"),
        "Only taps an experiment's variant of this name decided.")
    /// `utm_source`, …: one per campaign field.
    static let campaign = Hit.Campaign.Field.allCases.map { field in
        QueryParameter(
            field.rawValue, Schema.string(minLength: 1, maxLength: TextLimit.campaign.scalars),
            "Only hits whose campaign has this \(field.rawValue) (from the URL's query, else the link's own campaign).")
    }
    /// Read with `Request.flag`, which also takes `1`, `0` and upper-case spellings.
    static let includeBots = QueryParameter(
        "includeBots", .enumeration(["true", "false"]), "Count crawlers, link-preview fetchers and HEAD requests too (default false).")
    static let format = QueryParameter("format", .enumeration(["json", "csv"]), "`csv` answers text/csv (as does `Accept: text/csv`).")
    /// The parameters every analytics endpoint takes.
    static let declared =
        [fromParameter, toParameter, period, compare, tz, host, app, outcome, source, served, link, target, variant] + campaign
        + [country, os, browser, device, includeBots, format]

    /// The named periods.
    enum Period: String, CaseIterable {
        case today, yesterday
        case last7 = "7d", last30 = "30d", last90 = "90d"

        /// The first day (0: today) and the number of days.
        var days: (first: Int, count: Int) {
            switch self {
            case .today: (0, 1)
            case .yesterday: (-1, 1)
            case .last7: (-6, 7)
            case .last30: (-29, 30)
            case .last90: (-89, 90)
            }
        }
    }

    /// `from` and `to`: an RFC 3339 timestamp or a date, from 1970 to 9999.
    private static let instant = Schema.string(
        pattern:
            "^(19[7-9][0-9]|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]{1,9})?(Z|[+-](0[0-9]|1[0-7]):[0-5][0-9]))?$"
    ).example("2026-11-01T00:00:00Z")

    private(set) var from: Date
    private(set) var to: Date
    /// The period asked for by name, if any.
    let period: Period?
    /// The period just before `[from, to)`, of the same length, when `compare=previous`.
    private(set) var previous: (from: Date, to: Date)?
    let timeZone: TimeZone
    /// The zone's name as asked, echoed back (Foundation names `UTC` `GMT`).
    let timeZoneName: String
    /// `host`, `app`, `outcome`, `source`, `served`, `link`, `utm_*`, `includeBots`: what the reads are narrowed to.
    let filter: AnalyticsStore.Filter
    let csv: Bool

    /// - Parameter also: the endpoint's own parameters (besides `declared`); any other is a 400.
    /// - Throws: `ServiceError.badRequest`.
    init(_ request: Request, also own: [QueryParameter] = [], now: Date = Date()) throws(ServiceError) {
        try QueryParameter.refuseOthers(than: Self.declared + own, in: request)
        let zoneName = try Self.tz.value(in: request) ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw .badRequest("tz: unknown time zone '\(zoneName)'; use an IANA name such as UTC or Europe/Paris.")
        }
        timeZone = zone
        timeZoneName = zoneName
        period = try Self.period.value(in: request).flatMap(Period.init(rawValue:))
        var to: Date, from: Date
        if let period {
            guard try Self.fromParameter.value(in: request) == nil, try Self.toParameter.value(in: request) == nil else {
                throw .badRequest("period cannot be given with from or to: use one or the other.")
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let today = calendar.startOfDay(for: now)
            from = calendar.date(byAdding: .day, value: period.days.first, to: today)!
            to = calendar.date(byAdding: .day, value: period.days.count, to: from)!
        } else {
            to = try Self.instant(Self.toParameter.value(in: request), name: "to", zone: zone, endOfDay: true) ?? now
            let asked = try Self.instant(Self.fromParameter.value(in: request), name: "from", zone: zone, endOfDay: false)
            from = asked ?? max(to.addingTimeInterval(-7 * 86_400), Self.earliest)
        }
        from = Date(timeIntervalSince1970: (from.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
        to = Date(timeIntervalSince1970: (to.timeIntervalSince1970 / 3600).rounded(.up) * 3600)
        guard from >= Self.earliest, to >= Self.earliest else { throw .badRequest("from and to must be 1970-01-01 or later.") }
        guard from < Self.latest, to <= Self.latest else { throw .badRequest("from and to must be before the year 10000.") }
        guard from < to else { throw .badRequest("from must be before to.") }
        guard to.timeIntervalSince(from) <= Double(Self.maxDays) * 86_400 else {
            throw .badRequest("The range from \(Self.format(from, zone)) to \(Self.format(to, zone)) is longer than \(Self.maxDays) days.")
        }
        self.from = from
        self.to = to
        if try Self.compare.value(in: request) != nil {
            let before = from.addingTimeInterval(-to.timeIntervalSince(from))
            guard before >= Self.earliest else { throw .badRequest("compare=previous: the previous period would start before 1970.") }
            previous = (before, from)
        } else {
            previous = nil
        }
        var app: UUID?
        if let text = try Self.app.value(in: request) {
            guard let id = UUID(uuidString: text) else { throw .badRequest("app must be an app id (a UUID), not '\(text)'.") }
            app = id
        }
        var link: UUID?
        if let text = try Self.link.value(in: request) {
            guard let id = UUID(uuidString: text) else { throw .badRequest("link must be a link id (a UUID), not '\(text.prefix(100))'.") }
            link = id
        }
        var campaign: [Hit.Campaign.Field: String] = [:]
        for (field, parameter) in zip(Hit.Campaign.Field.allCases, Self.campaign) {
            guard let text = try parameter.value(in: request) else { continue }
            guard let value = Hit.Campaign.keptValue(text) else { throw .badRequest("\(field.rawValue) must not be empty.") }
            campaign[field] = value
        }
        var visitor: [AnalyticsStore.VisitorField: String] = [:]
        for (field, parameter) in zip(AnalyticsStore.VisitorField.allCases, [Self.country, Self.os, Self.browser, Self.device]) {
            guard let text = try parameter.value(in: request) else { continue }
            guard !text.isEmpty else { throw .badRequest("\(field.rawValue) must not be empty.") }
            if field == .country, text.utf8.count != 2 || !text.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) {
                throw .badRequest("country must be an ISO 3166-1 alpha-2 code in capitals (DE, US), not '\(text.prefix(100))'.")
            }
            visitor[field] = text
        }
        let source = try Self.source.value(in: request) ?? "click"
        let target = try Self.target.value(in: request), variant = try Self.variant.value(in: request)
        if target?.isEmpty == true || variant?.isEmpty == true {
            throw .badRequest("\(target?.isEmpty == true ? "target" : "variant") must not be empty.")
        }
        filter = AnalyticsStore.Filter(
            host: try Self.host.value(in: request).map { $0.lowercased() }, app: app,
            outcome: try Self.outcome.value(in: request).flatMap(Hit.Outcome.init(rawValue:)),
            source: Hit.Source(rawValue: source),
            served: try Self.served.value(in: request).flatMap(Hit.Served.init(rawValue:)),
            includeBots: try request.flag(Self.includeBots.name) ?? false,
            link: link, campaign: campaign, visitor: visitor, target: target, variant: variant
        )
        switch try Self.format.value(in: request) {
        case nil: csv = request.headers["Accept"]?.lowercased().contains("text/csv") == true
        case let format?: csv = format == "csv"
        }
    }

    /// The same question over whole UTC days, `from` rounded down and `to` up (and the previous period as long,
    /// just before): what the cubes counting per day answer (`AnalyticsCube.hourly`), echoed so.
    func inUTCDays() -> AnalyticsParameters {
        var widened = self
        widened.from = Date(timeIntervalSince1970: (from.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        widened.to = Date(timeIntervalSince1970: (to.timeIntervalSince1970 / 86_400).rounded(.up) * 86_400)
        if previous != nil {
            let before = widened.from.addingTimeInterval(-widened.to.timeIntervalSince(widened.from))
            widened.previous = (max(before, Self.earliest), widened.from)
        }
        return widened
    }

    /// The echo of the request in every answer.
    var jsonMembers: [JSONMember] {
        var members = [
            JSONMember(key: "from", value: .string(Self.format(from, timeZone))),
            JSONMember(key: "to", value: .string(Self.format(to, timeZone))),
            JSONMember(key: "timeZone", value: .string(timeZoneName)),
            JSONMember(key: "period", value: period.map { .string($0.rawValue) } ?? .null),
            JSONMember(key: "includeBots", value: .bool(filter.includeBots)),
            JSONMember(key: "source", value: .string(filter.source?.rawValue ?? "all")),
        ]
        if let previous {
            members.append(JSONMember(key: "previousFrom", value: .string(Self.format(previous.from, timeZone))))
            members.append(JSONMember(key: "previousTo", value: .string(Self.format(previous.to, timeZone))))
        }
        var filters: [JSONMember] = []
        if let host = filter.host { filters.append(JSONMember(key: "host", value: .string(host))) }
        if let app = filter.app { filters.append(JSONMember(key: "app", value: .string(app.canonicalText))) }
        if let outcome = filter.outcome { filters.append(JSONMember(key: "outcome", value: .string(outcome.rawValue))) }
        if let served = filter.served { filters.append(JSONMember(key: "served", value: .string(served.rawValue))) }
        if let link = filter.link { filters.append(JSONMember(key: "link", value: .string(link.canonicalText))) }
        if let target = filter.target { filters.append(JSONMember(key: "target", value: .string(target))) }
        if let variant = filter.variant { filters.append(JSONMember(key: "variant", value: .string(variant))) }
        for field in Hit.Campaign.Field.allCases {
            if let value = filter.campaign[field] { filters.append(JSONMember(key: field.rawValue, value: .string(value))) }
        }
        for field in AnalyticsStore.VisitorField.allCases {
            if let value = filter.visitor[field] { filters.append(JSONMember(key: field.rawValue, value: .string(value))) }
        }
        members.append(JSONMember(key: "filters", value: .object(filters)))
        return members
    }

    /// RFC 3339 in `zone` (`Z` for UTC, else the offset).
    static func format(_ date: Date, _ zone: TimeZone) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone))
    }

    /// The instant `text` names, in the dates every door accepts (`RFC3339.accepted`); a date `to` may end with
    /// the last accepted day, since `to` is exclusive.
    private static func instant(_ text: String?, name: String, zone: TimeZone, endOfDay: Bool) throws(ServiceError) -> Date? {
        guard let text else { return nil }
        let outOfRange = ServiceError.badRequest("\(name) must lie \(RFC3339.acceptedText), not '\(text)'.")
        var instant: Date?
        if text.count == 10, text.utf8.filter({ $0 == UInt8(ascii: "-") }).count == 2 {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            if parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]),
                let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])),
                calendar.component(.day, from: date) == parts[2]
            {
                instant = endOfDay ? calendar.date(byAdding: .day, value: 1, to: date) : date
            }
        } else {
            switch RFC3339.read(text) {
            case .date(let date): instant = date
            case .outOfRange: throw outOfRange
            case .malformed: break
            }
        }
        guard let instant else {
            throw .badRequest("\(name) must be an RFC 3339 timestamp (2026-11-01T00:00:00Z) or a date (2026-11-01), not '\(text)'.")
        }
        guard RFC3339.accepted.contains(instant) || (endOfDay && instant == RFC3339.accepted.upperBound) else { throw outOfRange }
        return instant
    }
}
