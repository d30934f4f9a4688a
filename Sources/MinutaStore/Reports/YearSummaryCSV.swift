/// `reports/YYYY/summary.csv`: the months of a year by tags, in hours, with a total column and a
/// total row. Every cell is rounded from exact milliseconds, so each total is the exact sum rounded once.
public enum YearSummaryCSV {
    public static func bytes(_ months: [MonthReport], tags: [ReportTag]) -> [UInt8] {
        var present = Set<ReportCategory>()
        for report in months { present.formUnion(report.categories) }
        let columns = tags.map { ReportCategory.tag($0.id) }.filter(present.contains)
            + [ReportCategory.untagged, .unknownTag].filter(present.contains)
        let names = Dictionary(tags.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var csv = CSVWriter()
        csv.row(["month"] + columns.map { $0.name(tags: names) } + ["total"])
        var columnTotals = [Int64](repeating: 0, count: columns.count)
        var grandTotal: Int64 = 0
        for report in months.sorted(by: { $0.month < $1.month }) {
            let totals = report.totalsByCategory
            let cells = columns.map { totals[$0]?.duration ?? 0 }
            for index in cells.indices { columnTotals[index] = columnTotals[index].addingSaturated(cells[index]) }
            grandTotal = grandTotal.addingSaturated(report.total)
            csv.row([report.month.description] + cells.map(ReportDuration.hours) + [ReportDuration.hours(report.total)])
        }
        csv.row(["total"] + columnTotals.map(ReportDuration.hours) + [ReportDuration.hours(grandTotal)])
        return csv.bytes
    }
}
