/// `reports/YYYY/MM.csv`: one row per record of the month, by start. `duration` and `hours` are the
/// record's own duration, rounded half up (``MonthReport/Figures``): they add up to the month's and
/// each tag's printed total.
/// A timer running for more than a day says so in `end`.
public enum TimesheetCSV {
    public static let header = ["date", "start", "end", "duration", "hours", "tag", "comment", "images", "id"]
    /// The `end` of a running timer, and of one running for more than a day.
    public static let running = "running", longRunning = "running (more than a day)"

    public static func bytes(_ report: MonthReport) -> [UInt8] {
        var csv = CSVWriter()
        csv.row(header)
        let figures = report.figures
        for (index, row) in report.rows.enumerated() {
            let date = row.date.map { "\(ISO8601.pad($0.year, 4))-\(ISO8601.pad($0.month, 2))-\(ISO8601.pad($0.day, 2))" } ?? ""
            let start = row.record.start.map(report.localTime) ?? ""
            let end = row.record.end.map(report.localTime) ?? (row.isLongRunning ? longRunning : running)
            csv.row([
                date, start, end, ReportDuration.hoursAndMinutes(minutes: figures.rowMinutes[index]),
                ReportDuration.hours(hundredths: figures.rowHundredths[index]),
                report.tagName(of: row), row.record.comment, String(row.record.imageCount), row.record.id,
            ])
        }
        return csv.bytes
    }
}
