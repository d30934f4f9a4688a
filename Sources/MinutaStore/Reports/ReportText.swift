/// The `minutafs report --format text` tables: a month's records and hours by tag, or a year's
/// months with their hours.
public enum ReportText {
    public static func month(_ report: MonthReport) -> String {
        var records = TextTable(header: ["Date", "Start", "End", "Time", "Tag", "Comment"], rightAligned: [3])
        for row in report.rows {
            let date = row.record.start.map { String(report.localTime($0).prefix(10)) } ?? "-"
            let start = row.record.start.map { String(report.localTime($0).dropFirst(11).prefix(5)) } ?? "-"
            var end = "running"
            if let instant = row.record.end {
                let text = report.localTime(instant)
                end = text.prefix(10) == date ? String(text.dropFirst(11).prefix(5)) : String(text.prefix(16))
            }
            let comment = Self.oneLine(row.record.comment, limit: 40)
            let tag = report.tagName(of: row)
            records.row([date, start, end, ReportDuration.hoursAndMinutes(row.duration), tag.count > 24 ? String(tag.prefix(23)) + "…" : tag,
                         comment])
        }
        records.rule()
        records.row(["", "", "", ReportDuration.hoursAndMinutes(report.total), "total", ""])
        return "\(report.month) (\(report.timeZone.identifier))\n\n" + records.text + "\n" + byTag(report)
    }

    static func byTag(_ report: MonthReport) -> String {
        var table = TextTable(header: ["Tag", "Hours", "Records", "Share"], rightAligned: [1, 2, 3])
        let totals = report.totalsByCategory
        let total = report.total  // a sum over the records: once, not once a tag
        for category in report.categories {
            let entry = totals[category] ?? (0, 0)
            table.row([category.name(tags: report.tagsByID), ReportDuration.hours(entry.duration), String(entry.records),
                       ReportDuration.share(entry.duration, of: total)])
        }
        table.rule()
        table.row(["total", ReportDuration.hours(total), String(report.rows.count), total > 0 ? "100.0%" : "0.0%"])
        return table.text
    }

    public static func year(_ reports: [MonthReport], tags: [ReportTag]) -> String {
        var table = TextTable(header: ["Month", "Hours", "Records"], rightAligned: [1, 2])
        var total: Int64 = 0
        var count = 0
        var byCategory: [ReportCategory: (duration: Int64, records: Int)] = [:]
        for report in reports.sorted(by: { $0.month < $1.month }) {
            table.row([report.month.description, ReportDuration.hours(report.total), String(report.rows.count)])
            total = total.addingSaturated(report.total)
            count += report.rows.count
            for (category, entry) in report.totalsByCategory {
                let sum = byCategory[category] ?? (0, 0)
                byCategory[category] = (sum.duration.addingSaturated(entry.duration), sum.records + entry.records)
            }
        }
        table.rule()
        table.row(["total", ReportDuration.hours(total), String(count)])
        let names = Dictionary(tags.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let order = tags.map { ReportCategory.tag($0.id) } + [.untagged, .unknownTag]
        var tagTable = TextTable(header: ["Tag", "Hours", "Records", "Share"], rightAligned: [1, 2, 3])
        for category in order {
            guard let entry = byCategory[category] else { continue }
            tagTable.row([category.name(tags: names), ReportDuration.hours(entry.duration), String(entry.records), ReportDuration.share(entry.duration, of: total)])
        }
        tagTable.rule()
        tagTable.row(["total", ReportDuration.hours(total), String(count), total > 0 ? "100.0%" : "0.0%"])
        return table.text + "\n" + tagTable.text
    }

    /// `text` on one line (line breaks become one space), shortened to `limit` characters with `…`.
    /// Reads no more of `text` than it shows: a comment may be 16 MiB.
    static func oneLine(_ text: String, limit: Int) -> String {
        var result = ""
        var count = 0
        var pendingSpace = false
        for character in text {
            if character.isNewline {
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
