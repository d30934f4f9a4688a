import Foundation
import MinutaStore

/// `minutafs summary` (SPEC 10): the hours of each day and week of a span, by tag, with the numbers
/// `minutafs report` prints (each record rounded to the minute, counted on the day it starts; a total
/// is the sum of its rows).
public struct TimerSummary: Sendable {
    /// A day with records: `YYYY-MM-DD`, minutes by tag name, in the report's tag order.
    public struct Day: Sendable {
        public var name: String
        public var minutesByTag: [(tag: String, minutes: Int64)]
        public var minutes: Int64 { ReportRounding.sum(minutesByTag.map(\.minutes)) }
    }

    public var days: [Day]
    /// The first and last day of the span.
    public var first: String
    public var last: String

    /// Days since 1970-01-01 of a `YYYY-MM-DD` name.
    static func dayNumber(_ name: String) -> Int64? {
        ISO8601.milliseconds(from: name + "T00:00:00Z").map { $0 / 86_400_000 }
    }

    static func dayName(_ number: Int64) -> String { String(ISO8601.string(milliseconds: number * 86_400_000).prefix(10)) }

    /// Monday 0 to Sunday 6 (1970-01-01 was a Thursday).
    static func weekday(_ number: Int64) -> Int64 { ((number + 3) % 7 + 7) % 7 }

    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// The span a `--day`, `--week` or `--month` around `day` (`YYYY-MM-DD`) covers; nil for a day that is no date.
    public static func span(of day: String, unit: Unit) -> (first: String, last: String)? {
        guard let number = dayNumber(day) else { return nil }
        switch unit {
        case .day: return (day, day)
        case .week:
            let monday = number - weekday(number)
            return (dayName(monday), dayName(monday + 6))
        case .month:
            guard let month = Month(yearSlashMonth: String(day.prefix(4)) + "/" + String(day.dropFirst(5).prefix(2))),
                  let firstNumber = dayNumber(String(day.prefix(8)) + "01") else { return nil }
            var lastNumber = firstNumber
            while dayName(lastNumber + 1).hasPrefix(month.yearSlashMonth.replacingOccurrences(of: "/", with: "-")) { lastNumber += 1 }
            return (dayName(firstNumber), dayName(lastNumber))
        }
    }

    public enum Unit: String, Sendable { case day, week, month }

    /// The text: a line per day with records (its tags and total), a line per week, and the total.
    public var text: String {
        var lines: [String] = []
        var weekMinutes: Int64 = 0
        var weekStart: Int64?
        func closeWeek() {
            guard let start = weekStart else { return }
            lines.append("week of \(Self.dayName(start)): \(ReportDuration.hoursAndMinutes(minutes: weekMinutes))")
            weekMinutes = 0
            weekStart = nil
        }
        for day in days {
            guard let number = Self.dayNumber(day.name) else { continue }
            let monday = number - Self.weekday(number)
            if weekStart != monday { closeWeek(); weekStart = monday }
            let tags = day.minutesByTag.map { TerminalText.escaped($0.tag) + " " + ReportDuration.hoursAndMinutes(minutes: $0.minutes) }
            lines.append(day.name + " " + Self.weekdayNames[Int(Self.weekday(number))] + " " + ReportDuration.hoursAndMinutes(minutes: day.minutes)
                         + "  (" + tags.joined(separator: ", ") + ")")
            weekMinutes += day.minutes
        }
        closeWeek()
        let total = ReportRounding.sum(days.map(\.minutes))
        lines.append("total \(first) to \(last): \(ReportDuration.hoursAndMinutes(minutes: total))")
        return lines.joined(separator: "\n") + "\n"
    }
}
