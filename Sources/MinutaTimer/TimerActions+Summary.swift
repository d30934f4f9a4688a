import MinutaStore

extension TimerActions {
    /// The summary of the days `first` to `last` (`YYYY-MM-DD`, in the store's time zone).
    public func summary(from first: String, through last: String, now: Int64) throws(TimerError) -> TimerSummary {
        guard let firstMonth = Month(yearSlashMonth: String(first.prefix(4)) + "/" + String(first.dropFirst(5).prefix(2))),
              let lastMonth = Month(yearSlashMonth: String(last.prefix(4)) + "/" + String(last.dropFirst(5).prefix(2))) else {
            throw .unreadableInstant(first)
        }
        let existing = try backend.months()
        let tags = ReportTag.tags(inTagsFile: (try? JSONParser.parse(try backend.tagsJSON())) ?? .object([]))
        var days: [String: [ReportCategory: Int64]] = [:]
        var order: [ReportCategory] = []
        var names: [ReportCategory: String] = [:]
        var month: Month? = firstMonth
        while let current = month, current <= lastMonth {
            // The records that start in `current`, from its document and its neighbours' (as `report` counts them).
            var seen = Set<RecordID>()
            var records: [ReportRecord] = []
            let sources = StoreReports.sourceMonths(of: current).filter { existing.contains($0) }
            for record in try backend.records(in: sources) {
                guard let start = record.startTime, backend.timeZone.month(ofMilliseconds: start) == current,
                      let report = ReportRecord(json: record.json), seen.insert(RecordID(report.id)).inserted else { continue }
                records.append(report)
            }
            let report = MonthReport(month: current, records: records, tags: tags, timeZone: backend.timeZone, now: now)
            for category in report.categories where !order.contains(category) {
                order.append(category)
                names[category] = report.names.name(of: category)
            }
            for row in report.rows {
                guard let date = row.date else { continue }
                let name = ISO8601.pad(date.year, 4) + "-" + ISO8601.pad(date.month, 2) + "-" + ISO8601.pad(date.day, 2)
                guard name >= first && name <= last else { continue }
                days[name, default: [:]][row.category, default: 0] += ReportRounding.rounded(row.duration, unit: ReportRounding.minute)
            }
            month = current.next
        }
        let list = days.keys.sorted().map { name in
            TimerSummary.Day(name: name, minutesByTag: order.compactMap { category in
                days[name]?[category].map { (tag: names[category] ?? "?", minutes: $0) }
            })
        }
        return TimerSummary(days: list, first: first, last: last)
    }
}

