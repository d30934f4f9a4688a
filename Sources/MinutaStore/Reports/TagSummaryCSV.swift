/// `reports/YYYY/MM-by-tag.csv`: per tag the hours, the number of records and the share of the
/// month, then the total. Untagged time and time under each unknown tag id have rows of their own;
/// a tag's hours are the sum of its rows' in `MM.csv`, and hours and shares add up to the total row
/// (``MonthReport/Figures``).
public enum TagSummaryCSV {
    public static let header = ["tag", "hours", "records", "share"]

    public static func bytes(_ report: MonthReport) -> [UInt8] {
        var csv = CSVWriter()
        csv.row(header)
        let totals = report.totalsByCategory
        let figures = report.figures
        for category in report.categories {
            csv.row([report.names.name(of: category), ReportDuration.hours(hundredths: figures.categoryHundredths[category] ?? 0),
                     String(totals[category]?.records ?? 0), ReportDuration.share(tenths: figures.categoryShares[category] ?? 0)])
        }
        csv.row(["total", ReportDuration.hours(hundredths: figures.totalHundredths), String(report.rows.count),
                 report.total > 0 ? "100.0%" : "0.0%"])
        return csv.bytes
    }
}
