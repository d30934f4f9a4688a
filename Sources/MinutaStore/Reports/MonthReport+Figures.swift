extension MonthReport {
    /// A month's durations as the reports print them: the month's exact total rounded once (to
    /// hundredths of an hour and to minutes), shared out among the categories, and each category's
    /// share among its records, by the largest-remainder method (`ReportRounding`). So the records'
    /// `hours` and `duration` add up to their tag's and to the month's, in every file; each figure is
    /// its exact value rounded down or up.
    public struct Figures: Sendable {
        /// Per row of ``MonthReport/rows``: hundredths of an hour and minutes.
        public var rowHundredths: [Int64]
        public var rowMinutes: [Int64]
        /// Per category: hundredths of an hour, and its share of the month in tenths of a percent
        /// (adding up to 1000 when the month has any time).
        public var categoryHundredths: [ReportCategory: Int64]
        public var categoryShares: [ReportCategory: Int64]
        public var totalHundredths: Int64
        public var totalMinutes: Int64
    }

    /// The month's printed figures.
    /// - Complexity: O(*n* log *n*) for *n* records.
    public var figures: Figures {
        let totals = totalsByCategory
        let exact = categories.map { totals[$0]?.duration ?? 0 }
        let hundredths = ReportRounding.distribute(exact, unit: ReportRounding.hundredthOfHour)
        let minutes = ReportRounding.distribute(exact, unit: ReportRounding.minute)
        let shares = ReportRounding.shares(exact)
        var rowsByCategory: [ReportCategory: [Int]] = [:]
        for (index, row) in rows.enumerated() { rowsByCategory[row.category, default: []].append(index) }
        var rowHundredths = [Int64](repeating: 0, count: rows.count)
        var rowMinutes = [Int64](repeating: 0, count: rows.count)
        for (position, category) in categories.enumerated() {
            let indices = rowsByCategory[category] ?? []
            let durations = indices.map { rows[$0].duration }
            let hours = ReportRounding.distribute(durations, unit: ReportRounding.hundredthOfHour, total: hundredths[position])
            let clock = ReportRounding.distribute(durations, unit: ReportRounding.minute, total: minutes[position])
            for (offset, index) in indices.enumerated() {
                rowHundredths[index] = hours[offset]
                rowMinutes[index] = clock[offset]
            }
        }
        return Figures(
            rowHundredths: rowHundredths, rowMinutes: rowMinutes,
            categoryHundredths: Dictionary(uniqueKeysWithValues: zip(categories, hundredths)),
            categoryShares: Dictionary(uniqueKeysWithValues: zip(categories, shares)),
            totalHundredths: hundredths.reduce(0) { $0.addingSaturated($1) },
            totalMinutes: minutes.reduce(0) { $0.addingSaturated($1) })
    }
}
