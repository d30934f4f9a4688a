extension MonthReport {
    /// A month's durations as the reports print them (SPEC section 9): each row its own duration,
    /// rounded half up to hundredths of an hour and to minutes (``ReportRounding/rounded(_:unit:)``),
    /// and every total the sum of the rows it covers. So a row can be checked against its own start
    /// and end, and the rows' `hours` and `duration` add up exactly to their tag's and the month's in
    /// every file.
    public struct Figures: Sendable {
        /// Per row of ``MonthReport/rows``: hundredths of an hour and minutes.
        public var rowHundredths: [Int64]
        public var rowMinutes: [Int64]
        /// Per category: hundredths of an hour (the sum of its rows'), and its share of the month in
        /// tenths of a percent (adding up to 1000 when the month has any time).
        public var categoryHundredths: [ReportCategory: Int64]
        public var categoryShares: [ReportCategory: Int64]
        /// The sums of all rows' figures.
        public var totalHundredths: Int64
        public var totalMinutes: Int64
    }

    /// The month's printed figures.
    /// - Complexity: O(*n*) for *n* records.
    public var figures: Figures {
        let rowHundredths = rows.map { ReportRounding.rounded($0.duration, unit: ReportRounding.hundredthOfHour) }
        let rowMinutes = rows.map { ReportRounding.rounded($0.duration, unit: ReportRounding.minute) }
        var categoryHundredths: [ReportCategory: Int64] = [:]
        for (row, hundredths) in zip(rows, rowHundredths) {
            categoryHundredths[row.category] = (categoryHundredths[row.category] ?? 0).addingSaturated(hundredths)
        }
        // Shares of the printed hours, so that a share can be checked against them; a month whose
        // rows all print 0.00 shares by the exact time.
        var parts = categories.map { categoryHundredths[$0] ?? 0 }
        if ReportRounding.sum(parts) == 0 {
            let totals = totalsByCategory
            parts = categories.map { totals[$0]?.duration ?? 0 }
        }
        return Figures(
            rowHundredths: rowHundredths, rowMinutes: rowMinutes,
            categoryHundredths: categoryHundredths,
            categoryShares: Dictionary(uniqueKeysWithValues: zip(categories, ReportRounding.shares(parts))),
            totalHundredths: ReportRounding.sum(rowHundredths),
            totalMinutes: ReportRounding.sum(rowMinutes))
    }
}
