/// The months of a year by category, in printed hundredths of an hour: what `summary.csv` and the
/// `report --year` tables show. Each month's cells are its ``MonthReport/Figures`` (as in its
/// `MM-by-tag.csv`); the totals are sums of the cells, so they add up exactly.
struct YearTable {
    struct Row {
        var report: MonthReport
        var cells: [Int64]
        var total: Int64
    }

    let columns: [ReportCategory]
    let names: ReportNames
    let rows: [Row]
    let columnTotals: [Int64]
    let total: Int64
    /// Records per column, over the year.
    let records: [Int]

    init(_ months: [MonthReport], tags: [ReportTag]) {
        var present = Set<ReportCategory>()
        for report in months { present.formUnion(report.categories) }
        columns = ReportCategory.ordered(present, tags: tags)
        names = ReportNames(categories: columns, tags: tags)
        var columnTotals = [Int64](repeating: 0, count: columns.count)
        var records = [Int](repeating: 0, count: columns.count)
        var total: Int64 = 0
        var rows: [Row] = []
        for report in months.sorted(by: { $0.month < $1.month }) {
            let figures = report.figures
            let counts = report.totalsByCategory
            let cells = columns.map { figures.categoryHundredths[$0] ?? 0 }
            for index in cells.indices {
                columnTotals[index] = columnTotals[index].addingSaturated(cells[index])
                records[index] += counts[columns[index]]?.records ?? 0
            }
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
