/// `reports/YYYY/MM.svg`: one stacked bar per day of the month in each tag's own color, day labels,
/// an hours axis, a legend with tag names and hours, and the month's total (SPEC section 9).
/// The layout is fixed-width; the legend grows downwards, four entries a row, so 1 or 40 tags and
/// 0 or 24 hours a day all stay readable.
public enum MonthPicture {
    public static let width = 860
    static let left = 56, top = 56, chartHeight = 300, slot = 25, legendColumns = 4, legendRow = 20
    /// Colors for time that has no tag color of its own.
    public static let untaggedColor = "#9E9E9E", unknownTagColor = "#5D4037", fallbackColor = "#607D8B"

    /// The picture's height: the chart, the day labels and the legend's rows.
    public static func height(legendEntries: Int) -> Int {
        let rows = max(1, (legendEntries + legendColumns - 1) / legendColumns)
        return top + chartHeight + 40 + rows * legendRow + 16
    }

    /// The color a category's bars and legend swatch are painted in.
    public static func color(of category: ReportCategory, tags: [String: ReportTag]) -> String {
        switch category {
        case .tag(let id): tags[id]?.color ?? fallbackColor
        case .untagged: untaggedColor
        case .unknownTag: unknownTagColor
        }
    }

    public static func bytes(_ report: MonthReport) -> [UInt8] {
        Array(svg(report).utf8)
    }

    static func svg(_ report: MonthReport) -> String {
        let days = report.dailyTotals
        let hour: Int64 = 3_600_000
        let busiest = days.map { $0.values.reduce(0, +) }.max() ?? 0
        // The axis: whole hours, at least 1, gridlines every 1, 2 or 4 hours.
        let topHours = max(1, Int((busiest + hour - 1) / hour))
        let step = topHours <= 8 ? 1 : topHours <= 16 ? 2 : 4
        let axisHours = (topHours + step - 1) / step * step
        let scale = Double(chartHeight) / Double(Int64(axisHours) * hour)
        let bottom = top + chartHeight
        let height = height(legendEntries: report.categories.count)
        let total = report.total
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="DejaVu Sans, Verdana, sans-serif" font-size="11">
            <rect x="0" y="0" width="\(width)" height="\(height)" fill="#FFFFFF"/>
            <text x="\(left)" y="24" font-size="16" font-weight="bold">\(report.month.description): \(ReportDuration.hours(total)) h (\(ReportDuration.hoursAndMinutes(total)))</text>
            <text x="\(left)" y="42" fill="#555555">\(report.rows.count) records, time zone \(escaped(report.timeZone.identifier))</text>

            """
        // Hours axis and gridlines.
        for hours in stride(from: 0, through: axisHours, by: step) {
            let y = Double(bottom) - Double(Int64(hours) * hour) * scale
            svg += "<line x1=\"\(left)\" y1=\"\(format(y))\" x2=\"\(left + days.count * slot)\" y2=\"\(format(y))\" stroke=\"#E0E0E0\" stroke-width=\"1\"/>\n"
            svg += "<text x=\"\(left - 6)\" y=\"\(format(y + 4))\" text-anchor=\"end\" fill=\"#333333\">\(hours) h</text>\n"
        }
        // One stacked bar per day, categories in the legend's order from the bottom up.
        for (index, day) in days.enumerated() {
            let x = left + index * slot + 3
            var y = Double(bottom)
            for category in report.categories {
                guard let milliseconds = day[category], milliseconds > 0 else { continue }
                let barHeight = Double(milliseconds) * scale
                y -= barHeight
                svg += "<rect x=\"\(x)\" y=\"\(format(y))\" width=\"\(slot - 6)\" height=\"\(format(barHeight))\" fill=\"\(color(of: category, tags: report.tagsByID))\"/>\n"
            }
            svg += "<text x=\"\(x + (slot - 6) / 2)\" y=\"\(bottom + 16)\" text-anchor=\"middle\" fill=\"#333333\">\(index + 1)</text>\n"
        }
        svg += "<line x1=\"\(left)\" y1=\"\(bottom)\" x2=\"\(left + days.count * slot)\" y2=\"\(bottom)\" stroke=\"#333333\" stroke-width=\"1\"/>\n"
        // Legend: swatch, name (shortened when long) and hours.
        let totals = report.totalsByCategory
        let columnWidth = (width - left - 16) / legendColumns
        if report.categories.isEmpty {
            svg += "<text x=\"\(left)\" y=\"\(bottom + 44)\" fill=\"#555555\">No time recorded this month.</text>\n"
        }
        for (index, category) in report.categories.enumerated() {
            let x = left + index % legendColumns * columnWidth
            let y = bottom + 32 + index / legendColumns * legendRow
            let name = shortened(category.name(tags: report.tagsByID), to: 22)
            svg += "<rect x=\"\(x)\" y=\"\(y)\" width=\"12\" height=\"12\" fill=\"\(color(of: category, tags: report.tagsByID))\"/>\n"
            svg += "<text x=\"\(x + 17)\" y=\"\(y + 10)\">\(escaped(name)) \(ReportDuration.hours(totals[category]?.duration ?? 0)) h</text>\n"
        }
        return svg + "</svg>\n"
    }

    static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = abs(hundredths)
        return sign + "\(magnitude / 100)." + (magnitude % 100 < 10 ? "0" : "") + "\(magnitude % 100)"
    }

    static func shortened(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
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
