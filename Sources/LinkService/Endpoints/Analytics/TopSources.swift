import Foundation
import Postgres

/// Where a path or referrer top list reads each part of its range from: compacted weeks inside the range from
/// `hit_top_weekly`, the other whole UTC days from `hit_top_daily` (every day has daily rows, `HitFold`), the hours
/// at either end from `hit_top_hourly`, and the whole range from `hit_top_pending` (not folded yet). Every compacted
/// week equals the sum of its days, and every day the sum of its hours, so the parts add up to exactly the hours of
/// `[from, to)`.
struct TopSources {
    /// Compacted weeks, by the day number (since 1970) of their Monday.
    var weeks: [Int] = []
    /// Whole days, by day number.
    var days: [Int] = []
    /// Hour ranges read from the hourly rows, as `[start, end)` in seconds since 1970, in order, adjacent ones merged.
    var hours: [(start: Int, end: Int)] = []
    /// The whole range, seconds since 1970 (what the pending rows are read for).
    var from: Int
    var to: Int

    /// Splits `[from, to)` (whole hours) given which weeks (by their Monday) are compacted.
    init(from: Date, to: Date, compactedWeeks: Set<Int64>) {
        let start = Int(from.timeIntervalSince1970), end = Int(to.timeIntervalSince1970)
        (self.from, self.to) = (start, end)
        // The whole UTC days inside the range: first..<last.
        let first = Int((Double(start) / 86_400).rounded(.up)), last = Int((Double(end) / 86_400).rounded(.down))
        guard last > first else {
            hours = [(start, end)]
            return
        }
        func hourly(_ range: (start: Int, end: Int)) {
            guard range.start < range.end else { return }
            if let previous = hours.last, previous.end == range.start {
                hours[hours.count - 1].end = range.end
            } else {
                hours.append(range)
            }
        }
        hourly((start, first * 86_400))
        var day = first
        while day < last {
            if HitTopCompaction.week(of: Int64(day)) == Int64(day), day + 7 <= last, compactedWeeks.contains(Int64(day)) {
                weeks.append(day)
                day += 7
                continue
            }
            days.append(day)
            day += 1
        }
        hourly((last * 86_400, end))
    }

    /// Reads which weeks touching `[from, to)` are compacted, then splits the range. A range reaching `now` reads its
    /// last UTC day whole, from its daily rows: no hit of that day is later than now yet.
    static func read(from: Date, to: Date, now: Date = Date(), on connection: Connection) throws -> TopSources {
        let to = to >= now ? Date(timeIntervalSince1970: ((to.timeIntervalSince1970 - 1) / 86_400).rounded(.down) * 86_400 + 86_400) : to
        let first = Int((from.timeIntervalSince1970 / 86_400).rounded(.down))
        let last = Int((to.timeIntervalSince1970 / 86_400).rounded(.up))
        let weeks = try AnalyticsStore.compactedWeeks(fromDay: first, toDay: last, on: connection)
        return TopSources(from: from, to: to, compactedWeeks: weeks)
    }
}

extension TopSources {
    /// Days in UTC: no hour of a UTC day is moved (what reads without buckets use).
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Where a read of `cube` takes `[from, to)`: the whole UTC days inside it from the daily rows (every day has
    /// them, `HitFold`), and the hours at either end from the hourly ones (cubes have no weekly rows); for a cube
    /// without hourly rows, every UTC day the range touches. With `days` (the buckets of a daily time series), a
    /// day's row is counted in the bucket holding its noon, and its hours in other buckets are moved to theirs
    /// (`CubeRange.moved`); `nil` for hourly buckets, which read hours only. A range reaching `now` reads its last
    /// UTC day whole, from its daily row (no hit of that day is later than now yet), when that day's noon falls in
    /// the range's last bucket.
    static func cubeRange(
        _ cube: AnalyticsCube, from: Date, to: Date, days calendar: Calendar? = utc,
        now: Date = Date()
    ) -> AnalyticsStore.CubeRange {
        var to = to
        let lastDay = ((to.timeIntervalSince1970 - 1) / 86_400).rounded(.down)
        if to >= now, let calendar,
            calendar.isDate(Date(timeIntervalSince1970: lastDay * 86_400 + 43_200), inSameDayAs: to.addingTimeInterval(-1))
        {
            to = Date(timeIntervalSince1970: (lastDay + 1) * 86_400)
        }
        let first = Int((from.timeIntervalSince1970 / 86_400).rounded(.down))
        let last = Int((to.timeIntervalSince1970 / 86_400).rounded(.up))
        let whole = (start: Int(from.timeIntervalSince1970), end: Int(to.timeIntervalSince1970))
        guard cube.hourly else {
            // Daily rows only: every UTC day the range touches (the caller has widened it to whole days).
            return AnalyticsStore.CubeRange(cube: cube, days: Array(first..<last), hours: [], from: first * 86_400, to: last * 86_400)
        }
        guard let calendar else {
            return AnalyticsStore.CubeRange(cube: cube, days: [], hours: [whole], from: whole.start, to: whole.end)
        }
        let sources = TopSources(from: from, to: to, compactedWeeks: [])
        var range = AnalyticsStore.CubeRange(cube: cube, days: sources.days, hours: sources.hours, from: whole.start, to: whole.end)
        for day in sources.days {
            let noon = Date(timeIntervalSince1970: Double(day * 86_400 + 43_200))
            for hour in 0..<24 where !calendar.isDate(Date(timeIntervalSince1970: Double(day * 86_400 + hour * 3600)), inSameDayAs: noon) {
                range.moved.append(day * 86_400 + hour * 3600)
            }
        }
        return range
    }
}
