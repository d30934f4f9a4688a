/// `reports/YYYY/summary.csv`: the months of a year by tags, in hours, with a total column and a
/// total row. A month's row is its `MM-by-tag.csv` (the sums of its rows' hours); the total row and
/// column add up the printed cells, so every row and column adds up exactly. Beyond 200 tags, those
/// with the least time share one `other tags (N)` column (``YearTable``).
public enum YearSummaryCSV {
    public static func bytes(_ months: [MonthReport], tags: [ReportTag]) -> [UInt8] {
        let table = YearTable(months, tags: tags)
        var csv = CSVWriter()
        csv.row(["month"] + table.columnNames + ["total"])
        for row in table.rows {
            csv.row([row.report.month.description] + row.cells.map { ReportDuration.hours(hundredths: $0) }
                    + [ReportDuration.hours(hundredths: row.total)])
        }
        csv.row(["total"] + table.columnTotals.map { ReportDuration.hours(hundredths: $0) } + [ReportDuration.hours(hundredths: table.total)])
        return csv.bytes
    }
}
