/// The `minutafs report --format text` tables: a month's records and hours by tag, or a year's
/// months with their hours. What the store holds is escaped (`TerminalText`: a comment cannot drive
/// the terminal) and columns line up by display width (`DisplayWidth`). The figures are those of the
/// CSVs (``MonthReport/Figures``), so the rows add up to the totals; timers running for more than a
/// day are flagged.
public enum ReportText {
    /// The widest the tag and comment columns get, in terminal columns.
    static let tagColumns = 24, commentColumns = 40

    public static func month(_ report: MonthReport) -> String {
        let figures = report.figures
        var records = TextTable(header: ["Date", "Start", "End", "Time", "Tag", "Comment"], rightAligned: [3])
        for (index, row) in report.rows.enumerated() {
            let date = row.record.start.map { String(report.localTime($0).prefix(10)) } ?? "-"
            let start = row.record.start.map { String(report.localTime($0).dropFirst(11).prefix(5)) + report.offsetSuffix($0) } ?? "-"
            var end = row.isLongRunning ? "running (>1 day)" : "running"
            if let instant = row.record.end {
                let text = report.localTime(instant)
                end = (text.prefix(10) == date ? String(text.dropFirst(11).prefix(5)) : String(text.prefix(16))) + report.offsetSuffix(instant)
            }
            records.row([date, start, end, ReportDuration.hoursAndMinutes(minutes: figures.rowMinutes[index]),
                         shown(report.tagName(of: row), columns: tagColumns), shown(row.record.comment, columns: commentColumns)])
        }
        records.rule()
        records.row(["", "", "", ReportDuration.hoursAndMinutes(minutes: figures.totalMinutes), "total", ""])
        return "\(report.month) (\(TerminalText.escaped(report.timeZone.identifier)))\n\n" + records.text + "\n" + byTag(report, figures)
            + notes(report).map { "\n" + $0 + "\n" }.joined()
    }

    static func byTag(_ report: MonthReport, _ figures: MonthReport.Figures) -> String {
        var table = TextTable(header: ["Tag", "Hours", "Records", "Share"], rightAligned: [1, 2, 3])
        let totals = report.totalsByCategory
        for category in report.categories {
            table.row([shown(report.names.name(of: category), columns: tagColumns),
                       ReportDuration.hours(hundredths: figures.categoryHundredths[category] ?? 0), String(totals[category]?.records ?? 0),
                       ReportDuration.share(tenths: figures.categoryShares[category] ?? 0)])
        }
        table.rule()
        table.row(["total", ReportDuration.hours(hundredths: figures.totalHundredths), String(report.rows.count),
                   report.total > 0 ? "100.0%" : "0.0%"])
        return table.text
    }

    /// The lines under a month's tables that flag timers running for more than a day.
    static func notes(_ report: MonthReport) -> [String] {
        let long = report.rows.filter(\.isLongRunning).compactMap(\.record.start)
        guard let first = long.min() else { return [] }
        let since = String(report.localTime(first).prefix(16))
        return [long.count == 1
            ? "! A timer has been running for more than a day, since \(since); its time counts up to now."
            : "! \(long.count) timers have been running for more than a day, the first since \(since); their time counts up to now."]
    }

    public static func year(_ reports: [MonthReport], tags: [ReportTag]) -> String {
        let year = YearTable(reports, tags: tags)
        var table = TextTable(header: ["Month", "Hours", "Records"], rightAligned: [1, 2])
        var count = 0
        var longRunning: [String] = []
        for row in year.rows {
            let running = row.report.hasLongRunningTimer
            if running { longRunning.append(row.report.month.description) }
            table.row([row.report.month.description + (running ? " !" : ""), ReportDuration.hours(hundredths: row.total), String(row.report.rows.count)])
            count += row.report.rows.count
        }
        table.rule()
        table.row(["total", ReportDuration.hours(hundredths: year.total), String(count)])
        var tagTable = TextTable(header: ["Tag", "Hours", "Records", "Share"], rightAligned: [1, 2, 3])
        let shares = year.shares
        for (index, name) in year.columnNames.enumerated() {
            tagTable.row([shown(name, columns: tagColumns), ReportDuration.hours(hundredths: year.columnTotals[index]),
                          String(year.records[index]), ReportDuration.share(tenths: shares[index])])
        }
        tagTable.rule()
        tagTable.row(["total", ReportDuration.hours(hundredths: year.total), String(count), year.total > 0 ? "100.0%" : "0.0%"])
        var text = table.text + "\n" + tagTable.text
        if !longRunning.isEmpty {
            text += "\n! A timer running for more than a day counts up to now in " + longRunning.joined(separator: ", ") + ".\n"
        }
        return text
    }

    /// `text` for a table cell: on one line, control characters escaped, at most `columns` wide.
    static func shown(_ text: String, columns: Int) -> String {
        DisplayWidth.prefix(TerminalText.escaped(oneLine(text, limit: columns)), columns: columns)
    }

    /// `text` on one line (each run of line breaks, LF, CR LF, U+2028 or U+2029, becomes one space),
    /// shortened to `limit` characters with `…`. A carriage return on its own, like a tab, is kept, for
    /// `TerminalText` to show escaped (`\u{D}`), never dropped in silence. Reads no more of `text`
    /// than it shows: a comment may be 16 MiB.
    static func oneLine(_ text: String, limit: Int) -> String {
        var result = ""
        var count = 0
        var pendingSpace = false
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\u{2028}" || character == "\u{2029}" {
                pendingSpace = count > 0
                continue
            }
            if pendingSpace {
                result.append(" ")
                count += 1
                pendingSpace = false
            }
            result.append(character)
            count += 1
            if count > limit { return String(result.prefix(limit - 1)) + "…" }
        }
        return result
    }
}
