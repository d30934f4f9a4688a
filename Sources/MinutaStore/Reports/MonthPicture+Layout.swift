extension MonthPicture {
    /// A legend entry and the bar segments painted for it: one category, or the categories left
    /// out of a full legend, together.
    public enum Entry: Hashable, Sendable {
        case category(ReportCategory)
        case others(count: Int)
    }

    /// What the picture shows, worked out before any SVG is written (SPEC section 9, "the picture
    /// is bounded"). Its size does not depend on the records: at most `legendLimit` legend entries
    /// and bar segments a day, an axis of at most 24 hours.
    public struct Layout: Sendable {
        /// Per day of the month (index 0 = the 1st): the milliseconds drawn for each legend entry,
        /// in the legend's order from the bottom up; at most 24 hours a day.
        public var bars: [[(entry: Entry, milliseconds: Double)]]
        /// The legend, in order: tags as tags.json orders them, then untagged and unknown time.
        public var legend: [Entry]
        /// Exact milliseconds of the month's records under each legend entry (as the CSVs count them).
        public var totals: [Entry: Int64]
        /// The hundredths of an hour the legend prints for each entry: the sum of its rows' in `MM.csv`
        /// (as `MM-by-tag.csv` prints them), so they add up to the title's total.
        public var hundredths: [Entry: Int64]
        /// Milliseconds of the month's records that lie outside its days (a record the app filed here
        /// that starts the evening before the 1st in the store's time zone, one that runs past the last
        /// day): counted in the total, not drawn.
        public var outside: Int64
        /// Days (1 = the 1st) on which the records add up to more time than the day has
        /// (overlapping records): drawn at 24 hours and marked.
        public var overfullDays: [Int]
        /// Running timers started more than a day before the report's clock, and the earliest start.
        public var longTimers: (count: Int, earliestStart: Int64)?
        /// Finished records longer than a day, and the latest end.
        public var longRecords: (count: Int, latestEnd: Int64)?
        /// The top of the hours axis and the hours between its gridlines.
        public var axisHours: Int
        public var axisStep: Int
    }

    /// The most legend entries (and bar segments a day): 40 tags are all shown; with more, the
    /// 39 with the most time are, and the rest are one entry.
    public static let legendLimit = 40
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// The instants the days of `month` begin at in `timeZone`, and the one the next month begins at.
    static func dayBoundaries(of month: Month, timeZone: StoreTimeZone) -> [Int64] {
        (1...month.dayCount + 1).map { dayOfMonth in
            // `days` counts on past the month's end, so day count + 1 is the next month's 1st.
            let local = Int64(ISO8601.days(year: month.year, month: month.month, day: dayOfMonth)) * day
            return HistoryInstant.utc(ofLocal: local, timeZone: timeZone)
        }
    }

    public static func layout(_ report: MonthReport) -> Layout {
        let month = report.month
        let boundaries = dayBoundaries(of: month, timeZone: report.timeZone)
        let totals = report.totalsByCategory

        // The legend: every category, or the legendLimit - 1 with the most time and the rest as one.
        var legend: [Entry]
        if report.categories.count <= legendLimit {
            legend = report.categories.map(Entry.category)
        } else {
            let ranked = report.categories.enumerated().sorted { left, right in
                let a = totals[left.element]?.duration ?? 0, b = totals[right.element]?.duration ?? 0
                return a != b ? a > b : left.offset < right.offset
            }
            let shown = Set(ranked.prefix(legendLimit - 1).map(\.element))
            legend = report.categories.filter(shown.contains).map(Entry.category)
            legend.append(.others(count: report.categories.count - shown.count))
        }
        // Legend positions: records add up in a day-by-entry table, at most 31 x legendLimit cells.
        var position: [ReportCategory: Int] = [:]
        for (index, entry) in legend.enumerated() { if case .category(let category) = entry { position[category] = index } }
        let othersPosition: Int? = if case .others? = legend.last { legend.count - 1 } else { nil }
        var entryTotals = [Int64](repeating: 0, count: legend.count)
        var entryHundredths = [Int64](repeating: 0, count: legend.count)
        let figures = report.figures
        for category in report.categories {
            guard let index = position[category] ?? othersPosition else { continue }
            entryTotals[index] = entryTotals[index].addingSaturated(totals[category]?.duration ?? 0)
            entryHundredths[index] = entryHundredths[index].addingSaturated(figures.categoryHundredths[category] ?? 0)
        }

        // Each record's time on the days of this month it covers, clipped to the month.
        let columns = legend.count
        var covered = [Int64](repeating: 0, count: month.dayCount * columns)
        var longTimers: (count: Int, earliestStart: Int64)?
        var longRecords: (count: Int, latestEnd: Int64)?
        var outside: Int64 = 0
        for row in report.rows {
            guard let start = row.record.start, let column = position[row.category] ?? othersPosition else { continue }
            let end = row.record.end ?? start.addingSaturated(row.duration)
            if row.duration > day {
                if row.isLongRunning {
                    longTimers = ((longTimers?.count ?? 0) + 1, min(longTimers?.earliestStart ?? start, start))
                } else {
                    longRecords = ((longRecords?.count ?? 0) + 1, max(longRecords?.latestEnd ?? end, end))
                }
            }
            let from = max(start, boundaries[0]), to = min(end, boundaries[month.dayCount])
            outside = outside.addingSaturated(row.duration.subtractingSaturated(max(0, to.subtractingSaturated(from))))
            guard from < to else { continue }
            // The first day that ends after `from`.
            var index = 0
            while boundaries[index + 1] <= from { index += 1 }
            while index < month.dayCount, boundaries[index] < to {
                let overlap = min(to, boundaries[index + 1]) - max(from, boundaries[index])
                covered[index * columns + column] = covered[index * columns + column].addingSaturated(overlap)
                index += 1
            }
        }

        // At most 24 hours a day: overlapping records are drawn scaled down to a full day.
        var bars: [[(entry: Entry, milliseconds: Double)]] = []
        var overfullDays: [Int] = []
        var busiest: Int64 = 0
        for index in 0..<month.dayCount {
            let day = covered[index * columns..<(index + 1) * columns]
            let sum = day.reduce(Int64(0)) { $0.addingSaturated($1) }
            let length = boundaries[index + 1] - boundaries[index]
            if sum > max(length, Self.day) { overfullDays.append(index + 1) }
            let drawn = min(sum, Self.day)
            busiest = max(busiest, drawn)
            let scale = sum > 0 ? Double(drawn) / Double(sum) : 0
            bars.append(zip(legend, day).compactMap { entry, milliseconds in
                milliseconds > 0 ? (entry, Double(milliseconds) * scale) : nil
            })
        }
        // Whole hours, at least 1 and at most 24, gridlines every 1, 2 or 4 hours: at most 9 labels,
        // at least 33 pixels apart.
        let topHours = max(1, Int((busiest + hour - 1) / hour))
        let step = topHours <= 8 ? 1 : topHours <= 16 ? 2 : 4
        return Layout(bars: bars, legend: legend, totals: Dictionary(uniqueKeysWithValues: zip(legend, entryTotals)),
                      hundredths: Dictionary(uniqueKeysWithValues: zip(legend, entryHundredths)), outside: outside, overfullDays: overfullDays,
                      longTimers: longTimers, longRecords: longRecords,
                      axisHours: (topHours + step - 1) / step * step, axisStep: step)
    }
}
