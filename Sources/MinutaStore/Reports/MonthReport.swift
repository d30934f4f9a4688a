/// The numbers behind a month's reports, from the records of one month document and the tags
/// (SPEC section 9). Pure: the clock, for running timers, is an argument.
public struct MonthReport: Sendable {
    public struct Row: Sendable {
        public var record: ReportRecord
        /// Exact milliseconds: end (or `now` for a running timer) minus start, never negative.
        public var duration: Int64
        public var category: ReportCategory
        /// The day the record counts on: its start's date in the store's time zone.
        public var date: (year: Int, month: Int, day: Int)?
        public var isRunning: Bool { record.end == nil }
        /// A timer that has been running for more than a day: its time counts up to now, as the spec
        /// says, and the reports flag it (SPEC section 9).
        public var isLongRunning: Bool { isRunning && record.start != nil && duration > MonthReport.day }
    }

    static let day: Int64 = 86_400_000

    public let month: Month
    public let rows: [Row]
    public let tagsByID: [String: ReportTag]
    /// Tags in tags.json's order, then untagged, then unknown ids: only those with records this month.
    public let categories: [ReportCategory]
    /// The names rows and columns show for the categories, all distinguishable.
    public let names: ReportNames
    public let timeZone: StoreTimeZone
    /// Whether a running timer makes the numbers change with the clock.
    public let dependsOnClock: Bool

    public init(month: Month, records: [ReportRecord], tags: [ReportTag], timeZone: StoreTimeZone, now: Int64) {
        self.month = month
        self.timeZone = timeZone
        tagsByID = Dictionary(tags.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let known = tagsByID
        var rows: [Row] = records.map { record in
            var duration: Int64 = 0
            var date: (Int, Int, Int)?
            if let start = record.start {
                duration = max(0, (record.end ?? now).subtractingSaturated(start))
                let c = ISO8601.components(milliseconds: start, offsetSeconds: timeZone.offsetSeconds(atMilliseconds: start))
                date = (c.year, c.month, c.day)
            }
            let category: ReportCategory = record.tagID.map { known[$0] == nil ? .unknownTag($0) : .tag($0) } ?? .untagged
            return Row(record: record, duration: duration, category: category, date: date)
        }
        rows.sort { left, right in
            switch (left.record.start, right.record.start) {
            case let (a?, b?) where a != b: return a < b
            case (nil, _?): return false
            case (_?, nil): return true
            default: return left.record.id.utf8.lexicographicallyPrecedes(right.record.id.utf8)
            }
        }
        self.rows = rows
        categories = ReportCategory.ordered(Set(rows.map(\.category)), tags: tags)
        names = ReportNames(categories: categories, tags: tags)
        dependsOnClock = rows.contains { $0.isRunning && $0.record.start != nil }
    }

    /// Exact milliseconds of the whole month (held at `Int64.max`, 292 million years, should the
    /// records hold more).
    public var total: Int64 { rows.reduce(0) { $0.addingSaturated($1.duration) } }

    /// Exact milliseconds and number of records per category.
    public var totalsByCategory: [ReportCategory: (duration: Int64, records: Int)] {
        var totals: [ReportCategory: (duration: Int64, records: Int)] = [:]
        for row in rows {
            let entry = totals[row.category] ?? (0, 0)
            totals[row.category] = (entry.duration.addingSaturated(row.duration), entry.records + 1)
        }
        return totals
    }

    /// Exact milliseconds per category for each day of the month (index 0 = the 1st); records that
    /// start in another month (the app files by the phone's zone) are not on a day of this one.
    public var dailyTotals: [[ReportCategory: Int64]] {
        var days = [[ReportCategory: Int64]](repeating: [:], count: month.dayCount)
        for row in rows {
            guard let date = row.date, date.year == month.year, date.month == month.month else { continue }
            days[date.day - 1][row.category] = (days[date.day - 1][row.category] ?? 0).addingSaturated(row.duration)
        }
        return days
    }

    /// `2024-01-15 09:30:00` in the store's time zone; in the hour clocks repeat when they go back,
    /// with its UTC offset, `2025-10-26 02:30:00 +02:00` (``offsetSuffix(_:)``), so the two 02:30s
    /// differ and a row's end minus its start is its duration.
    func localTime(_ milliseconds: Int64) -> String {
        let c = ISO8601.components(milliseconds: milliseconds, offsetSeconds: timeZone.offsetSeconds(atMilliseconds: milliseconds))
        return "\(ISO8601.pad(c.year, 4))-\(ISO8601.pad(c.month, 2))-\(ISO8601.pad(c.day, 2)) \(ISO8601.pad(c.hour, 2)):\(ISO8601.pad(c.minute, 2)):\(ISO8601.pad(c.second, 2))"
            + offsetSuffix(milliseconds)
    }

    /// ` +02:00` for a time in the hour clocks repeat, else empty (``StoreTimeZone/offsetSuffixWhenRepeated(atMilliseconds:)``).
    func offsetSuffix(_ milliseconds: Int64) -> String {
        timeZone.offsetSuffixWhenRepeated(atMilliseconds: milliseconds)
    }

    /// The name a row's tag column shows: its category's name (``names``), empty for none.
    func tagName(of row: Row) -> String {
        row.category == .untagged ? "" : names.name(of: row.category)
    }

    /// Whether a timer in the month has been running for more than a day.
    public var hasLongRunningTimer: Bool { rows.contains(where: \.isLongRunning) }
}
