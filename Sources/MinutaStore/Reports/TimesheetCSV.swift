/// `reports/YYYY/MM.csv`: one row per record of the month, by start.
public enum TimesheetCSV {
    public static let header = ["date", "start", "end", "duration", "hours", "tag", "comment", "images", "id"]

    public static func bytes(_ report: MonthReport) -> [UInt8] {
        var csv = CSVWriter()
        csv.row(header)
        for row in report.rows {
            let date = row.date.map { "\(ISO8601.pad($0.year, 4))-\(ISO8601.pad($0.month, 2))-\(ISO8601.pad($0.day, 2))" } ?? ""
            let start = row.record.start.map(report.localTime) ?? ""
            let end = row.record.end.map(report.localTime) ?? "running"
            csv.row([
                date, start, end, ReportDuration.hoursAndMinutes(row.duration), ReportDuration.hours(row.duration),
                report.tagName(of: row), row.record.comment, String(row.record.imageCount), row.record.id,
            ])
        }
        return csv.bytes
    }
}
