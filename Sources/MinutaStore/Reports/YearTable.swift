/// The months of a year by category, in printed hundredths of an hour: what `summary.csv` and the
/// `report --year` tables show. Each month's cells are its ``MonthReport/Figures`` (as in its
/// `MM-by-tag.csv`); the totals are sums of the cells, so they add up exactly.
///
/// At most ``columnLimit`` categories get a column of their own: beyond that, the categories with
/// the least time over the year share one last column, `other tags (N)`, as the picture's legend
/// does (a store with 10,000 tags gives a sheet a spreadsheet opens, not one of 10,002 columns).
struct YearTable {
    struct Row {
        var report: MonthReport
        /// One per column of ``columnNames``.
        var cells: [Int64]
        var total: Int64
    }

    /// The most categories shown in columns of their own.
    static let columnLimit = 200

    /// The categories with a column of their own, in report order.
    let columns: [ReportCategory]
    /// How many categories share the last column (0: there is none).
    let otherCount: Int
    /// The columns' names: the categories' (``ReportNames``), then `other tags (N)` when there is one.
    let columnNames: [String]
    let rows: [Row]
    let columnTotals: [Int64]
    let total: Int64
    /// Records per column, over the year.
    let records: [Int]

    /// The name of the column of the categories beyond ``columnLimit``.
    static func otherColumnName(count: Int) -> String { "other tags (\(count))" }

    init(_ months: [MonthReport], tags: [ReportTag]) {
        var present = Set<ReportCategory>()
        for report in months { present.formUnion(report.categories) }
        let all = ReportCategory.ordered(present, tags: tags)
        // Each category's time over the year, in printed hundredths, to choose the columns by.
        var yearHundredths: [ReportCategory: Int64] = [:]
        for report in months {
            for (category, hundredths) in report.figures.categoryHundredths {
                yearHundredths[category] = (yearHundredths[category] ?? 0).addingSaturated(hundredths)
            }
        }
        var shown = all
        if all.count > Self.columnLimit {
            let ranked = all.enumerated().sorted { left, right in
                let a = yearHundredths[left.element] ?? 0, b = yearHundredths[right.element] ?? 0
                return a != b ? a > b : left.offset < right.offset
            }
            let kept = Set(ranked.prefix(Self.columnLimit).map(\.element))
            shown = all.filter(kept.contains)
        }
        columns = shown
        otherCount = all.count - shown.count
        let otherName = Self.otherColumnName(count: otherCount)
        let names = ReportNames(categories: all, tags: tags, reserving: otherCount > 0 ? [otherName] : [])
        columnNames = shown.map(names.name(of:)) + (otherCount > 0 ? [otherName] : [])
        var position: [ReportCategory: Int] = [:]
        for (index, category) in shown.enumerated() { position[category] = index }
        let otherColumn: Int? = otherCount > 0 ? shown.count : nil

        var columnTotals = [Int64](repeating: 0, count: columnNames.count)
        var records = [Int](repeating: 0, count: columnNames.count)
        var total: Int64 = 0
        var rows: [Row] = []
        for report in months.sorted(by: { $0.month < $1.month }) {
            let figures = report.figures
            let counts = report.totalsByCategory
            var cells = [Int64](repeating: 0, count: columnNames.count)
            for category in report.categories {
                guard let index = position[category] ?? otherColumn else { continue }
                cells[index] = cells[index].addingSaturated(figures.categoryHundredths[category] ?? 0)
                records[index] += counts[category]?.records ?? 0
            }
            for index in cells.indices { columnTotals[index] = columnTotals[index].addingSaturated(cells[index]) }
            total = total.addingSaturated(figures.totalHundredths)
            rows.append(Row(report: report, cells: cells, total: figures.totalHundredths))
        }
        self.rows = rows
        self.columnTotals = columnTotals
        self.records = records
        self.total = total
    }

    /// Each column's share of the year in tenths of a percent, adding up to 1000.
    var shares: [Int64] { ReportRounding.shares(columnTotals) }
}
