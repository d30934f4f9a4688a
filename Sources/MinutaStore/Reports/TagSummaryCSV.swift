/// `reports/YYYY/MM-by-tag.csv`: per tag the hours, the number of records and the share of the
/// month, then the total. Untagged time and time under unknown tag ids have rows of their own.
public enum TagSummaryCSV {
    public static let header = ["tag", "hours", "records", "share"]

    public static func bytes(_ report: MonthReport) -> [UInt8] {
        var csv = CSVWriter()
        csv.row(header)
        let totals = report.totalsByCategory
        let total = report.total
        for category in report.categories {
            let entry = totals[category] ?? (0, 0)
            csv.row([category.name(tags: report.tagsByID), ReportDuration.hours(entry.duration), String(entry.records),
                     ReportDuration.share(entry.duration, of: total)])
        }
        csv.row(["total", ReportDuration.hours(total), String(report.rows.count), total > 0 ? "100.0%" : "0.0%"])
        return csv.bytes
    }
}
