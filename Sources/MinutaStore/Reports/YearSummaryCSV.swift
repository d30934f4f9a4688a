/// `reports/YYYY/summary.csv`: the months of a year by tags, in hours, with a total column and a
/// total row. A month's row is its `MM-by-tag.csv` (the sums of its rows' hours); the total row and
/// column add up the printed cells, so every row and column adds up exactly.
public enum YearSummaryCSV {
    public static func bytes(_ months: [MonthReport], tags: [ReportTag]) -> [UInt8] {
        let table = YearTable(months, tags: tags)
        var csv = CSVWriter()
        csv.row(["month"] + table.columns.map(table.names.name(of:)) + ["total"])
        for row in table.rows {
            csv.row([row.report.month.description] + row.cells.map { ReportDuration.hours(hundredths: $0) }
                    + [ReportDuration.hours(hundredths: row.total)])
        }
        csv.row(["total"] + table.columnTotals.map { ReportDuration.hours(hundredths: $0) } + [ReportDuration.hours(hundredths: table.total)])
        return csv.bytes
    }
}
