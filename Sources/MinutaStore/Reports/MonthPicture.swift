/// `reports/YYYY/MM.svg`: one stacked bar per day of the month in each tag's own color, day labels,
/// an hours axis, a legend with tag names and hours, and the month's total (SPEC section 9).
/// The layout is fixed-width; the legend grows downwards, four entries a row, so 1 or 40 tags and
/// 0 or 24 hours a day all stay readable. Whatever the records, its size is bounded (SPEC 5b): a
/// record is drawn on the days of this month it covers, a day's bar holds at most 24 hours, the
/// legend holds at most ``legendLimit`` entries, and notes under it flag what the bars cannot show
/// (timers running for more than a day, records longer than a day, overlapping records).
public enum MonthPicture {
    public static let width = 860
    static let left = 56, top = 56, chartHeight = 300, slot = 25, legendColumns = 4, legendRow = 20, noteRow = 16
    /// Colors for time that has no tag color of its own, for the tags left out of a full legend, and
    /// for the marks and notes that flag what the bars cannot show.
    public static let untaggedColor = "#9E9E9E", unknownTagColor = "#5D4037", fallbackColor = "#607D8B"
    public static let othersColor = "#BDBDBD", markColor = "#C62828"

    /// The picture's height: the chart, the day labels, the legend's rows and the notes under it.
    public static func height(legendEntries: Int, notes: Int = 0) -> Int {
        let rows = max(1, (min(legendEntries, legendLimit) + legendColumns - 1) / legendColumns)
        return top + chartHeight + 40 + rows * legendRow + notes * noteRow + 16
    }

    /// The color a category's bars and legend swatch are painted in.
    public static func color(of category: ReportCategory, tags: [String: ReportTag]) -> String {
        switch category {
        case .tag(let id): tags[id]?.color ?? fallbackColor
        case .untagged: untaggedColor
        case .unknownTag: unknownTagColor
        }
    }

    static func color(of entry: Entry, tags: [String: ReportTag]) -> String {
        switch entry {
        case .category(let category): color(of: category, tags: tags)
        case .others: othersColor
        }
    }

    public static func bytes(_ report: MonthReport) -> [UInt8] {
        Array(svg(report).utf8)
    }

    /// The lines under the legend that say what the bars do not show as recorded.
    static func notes(_ layout: Layout, report: MonthReport) -> [String] {
        var notes: [String] = []
        if let timers = layout.longTimers {
            let since = String(report.localTime(timers.earliestStart).prefix(16))
            notes.append(timers.count == 1
                ? "⚠ A timer has been running for more than a day, since \(since): drawn at most 24 h a day."
                : "⚠ \(timers.count) timers have been running for more than a day, the first since \(since): drawn at most 24 h a day.")
        }
        if let records = layout.longRecords {
            let end = String(report.localTime(records.latestEnd).prefix(16))
            notes.append(records.count == 1
                ? "⚠ A record lasts more than a day (to \(end)): drawn on the days of this month it covers."
                : "⚠ \(records.count) records last more than a day (the last to \(end)): drawn on the days of this month they cover.")
        }
        if layout.outside > 0 {
            notes.append("⚠ \(ReportDuration.hours(layout.outside)) h of the total lie outside this month's days: not drawn.")
        }
        if !layout.overfullDays.isEmpty {
            notes.append("▲ Overlapping records add up to more than 24 h on \(layout.overfullDays.count == 1 ? "this day" : "these days"): drawn at 24 h.")
        }
        return notes
    }

    static func svg(_ report: MonthReport) -> String {
        let layout = layout(report)
        let notes = notes(layout, report: report)
        let scale = Double(chartHeight) / Double(Int64(layout.axisHours) * hour)
        let bottom = top + chartHeight
        let dayCount = layout.bars.count
        let height = height(legendEntries: layout.legend.count, notes: notes.count)
        let figures = report.figures
        let columnWidth = (width - left - 16) / legendColumns
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="DejaVu Sans, Verdana, sans-serif" font-size="11">
            <rect x="0" y="0" width="\(width)" height="\(height)" fill="#FFFFFF"/>
            <text x="\(left)" y="24" font-size="16" font-weight="bold">\(report.month.description): \(ReportDuration.hours(hundredths: figures.totalHundredths)) h (\(ReportDuration.hoursAndMinutes(minutes: figures.totalMinutes)))</text>
            <text x="\(left)" y="42" fill="#555555">\(report.rows.count) records, time zone \(escaped(shortened(report.timeZone.identifier, to: 60)))</text>

            """
        // Each legend entry's name is clipped where its hours begin, so a long name is cut and the
        // hours always show whole, right-aligned in the entry's column.
        let legendHours = layout.legend.map { ReportDuration.hours(hundredths: layout.hundredths[$0] ?? 0) + " h" }
        svg += "<defs>"
        for (index, hours) in legendHours.enumerated() {
            let x = left + index % legendColumns * columnWidth + 17
            let y = bottom + 32 + index / legendColumns * legendRow - 4
            let width = max(0, columnWidth - 8 - 17 - Self.textWidth(hours) - 6)
            svg += "<clipPath id=\"legend\(index)\"><rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(legendRow)\"/></clipPath>"
        }
        svg += "</defs>\n"
        // Hours axis and gridlines.
        for hours in stride(from: 0, through: layout.axisHours, by: layout.axisStep) {
            let y = Double(bottom) - Double(Int64(hours) * hour) * scale
            svg += "<line x1=\"\(left)\" y1=\"\(format(y))\" x2=\"\(left + dayCount * slot)\" y2=\"\(format(y))\" stroke=\"#E0E0E0\" stroke-width=\"1\"/>\n"
            svg += "<text x=\"\(left - 6)\" y=\"\(format(y + 4))\" text-anchor=\"end\" fill=\"#333333\">\(hours) h</text>\n"
        }
        // One stacked bar per day, in the legend's order from the bottom up.
        let overfull = Set(layout.overfullDays)
        for (index, day) in layout.bars.enumerated() {
            let x = left + index * slot + 3
            var y = Double(bottom)
            for (entry, milliseconds) in day {
                let barHeight = milliseconds * scale
                y -= barHeight
                svg += "<rect x=\"\(x)\" y=\"\(format(y))\" width=\"\(slot - 6)\" height=\"\(format(barHeight))\" fill=\"\(color(of: entry, tags: report.tagsByID))\"/>\n"
            }
            if overfull.contains(index + 1) {
                let middle = x + (slot - 6) / 2
                svg += "<polygon points=\"\(middle - 5),\(format(y - 2)) \(middle + 5),\(format(y - 2)) \(middle),\(format(y - 8))\" fill=\"\(markColor)\"/>\n"
            }
            svg += "<text x=\"\(x + (slot - 6) / 2)\" y=\"\(bottom + 16)\" text-anchor=\"middle\" fill=\"#333333\">\(index + 1)</text>\n"
        }
        svg += "<line x1=\"\(left)\" y1=\"\(bottom)\" x2=\"\(left + dayCount * slot)\" y2=\"\(bottom)\" stroke=\"#333333\" stroke-width=\"1\"/>\n"
        // Legend: swatch, name (shortened so the hours fit) and hours.
        if layout.legend.isEmpty {
            svg += "<text x=\"\(left)\" y=\"\(bottom + 44)\" fill=\"#555555\">No time recorded this month.</text>\n"
        }
        for (index, entry) in layout.legend.enumerated() {
            let column = index % legendColumns
            let x = left + column * columnWidth
            let y = bottom + 32 + index / legendColumns * legendRow
            let hours = legendHours[index]
            let name: String
            switch entry {
            case .category(let category): name = report.names.name(of: category)
            case .others(let count): name = "\(count) more"
            }
            // About 7 pixels a character: the name is shortened with "…" to what its clip holds.
            let nameRoom = max(1, (columnWidth - 8 - 17 - Self.textWidth(hours) - 6) / 7)
            svg += "<rect x=\"\(x)\" y=\"\(y)\" width=\"12\" height=\"12\" fill=\"\(color(of: entry, tags: report.tagsByID))\"/>\n"
            svg += "<text x=\"\(x + 17)\" y=\"\(y + 10)\" clip-path=\"url(#legend\(index))\">\(escaped(shortened(name, to: nameRoom)))</text>\n"
            svg += "<text x=\"\(x + columnWidth - 8)\" y=\"\(y + 10)\" text-anchor=\"end\">\(hours)</text>\n"
        }
        // Notes: what the bars do not show as recorded.
        let notesTop = bottom + 32 + max(1, (layout.legend.count + legendColumns - 1) / legendColumns) * legendRow
        for (index, note) in notes.enumerated() {
            svg += "<text x=\"\(left)\" y=\"\(notesTop + index * noteRow + 10)\" fill=\"\(markColor)\">\(escaped(note))</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// The pixels `text` (digits, `.`, ` h`) takes at the picture's 11-pixel font, rounded up: DejaVu
    /// Sans and Verdana draw a digit in at most 7.7 pixels; 8 a character leaves room to spare.
    static func textWidth(_ text: String) -> Int {
        text.count * 8
    }

    static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        return sign + "\(magnitude / 100)." + (magnitude % 100 < 10 ? "0" : "") + "\(magnitude % 100)"
    }

    /// `text`, or its first `length - 1` characters and `…`; reads no more of it than that.
    static func shortened(_ text: String, to length: Int) -> String {
        text.prefix(length).endIndex == text.endIndex ? text : String(text.prefix(length - 1)) + "…"
    }

    /// Text for XML character data and attribute values.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case _ where scalar.value < 0x20: result += " "  // control characters are not allowed in XML 1.0
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
