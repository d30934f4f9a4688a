import ArgumentParser
import MinutaStore
import MinutaTimer

extension Minutafs {
    /// `minutafs summary [--day | --week | --month] [DATE]`: hours per day and week.
    struct Summary: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "summary",
            abstract: "Print the hours of each day and week, by tag (a day, a week or a month).",
            discussion: """
                One line per day with records (its total, then each tag's), one per week (Monday to \
                Sunday), and the total: the numbers `minutafs report` prints (each record rounded to \
                the minute, counted on the day it starts; a running timer up to now). --week (the \
                default) is the week of DATE, --day the day, --month its month. DATE is YYYY-MM-DD \
                (default: today in the store's time zone).

                Examples (the store named, or the one in ~/.config/minutafs/config):
                  minutafs summary --week --date 2024-11-20 ~/Dropbox/Minuta
                  minutafs summary --month --date 2024-10-01 ~/Dropbox/Minuta
                """)

        @Flag(help: "The day of --date.") var day = false
        @Flag(help: "The week (Monday to Sunday) of --date (the default).") var week = false
        @Flag(help: "The month of --date.") var month = false

        @Option(help: ArgumentHelp("A day of the span (default: today).", valueName: "YYYY-MM-DD"))
        var date: String?

        @OptionGroup var options: TimerOptions

        func validate() throws {
            try TimeZoneOption.validate(options.timezone)
            if [day, week, month].filter({ $0 }).count > 1 { throw ValidationError("give one of --day, --week, --month") }
            if let date, TimerSummary.span(of: date, unit: .day) == nil || date.utf8.count != 10 {
                throw ValidationError("--date \(date): expected YYYY-MM-DD, such as 2024-11-20")
            }
        }

        func run() throws {
            try reportingFailures {
                let actions = try TimerPlace.actions(options.place, writing: false)
                let now = TimerPlace.now()
                let today = date ?? HistoryInstant.dayName(ofMilliseconds: now, timeZone: actions.backend.timeZone)
                let unit: TimerSummary.Unit = day ? .day : month ? .month : .week
                guard let span = TimerSummary.span(of: today, unit: unit) else {
                    throw CommandFailure(path: today, cause: "not a date", separator: ": ")
                }
                let summary = try TimerPlace.running(actions.backend.placeDescription) { () throws(TimerError) in
                    try actions.summary(from: span.first, through: span.last, now: now)
                }
                print(summary.text, terminator: "")
                if let backend = actions.backend as? StoreTimerBackend { WaitingCopiesNotice.print(for: backend.store) }
            }
        }
    }
}
