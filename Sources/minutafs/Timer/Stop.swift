import ArgumentParser
import MinutaStore
import MinutaTimer

extension Minutafs {
    /// `minutafs stop`: ends the running timer.
    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop the running timer (every one, if several run).",
            discussion: """
                Sets the end of each running timer (a record without an end) to now, or to --at. Exit \
                status 1, with a message, when no timer runs. --at takes the forms `start --at` takes.

                Examples:
                  minutafs stop ~/minuta
                  minutafs stop --at 17:45
                """)

        @Option(parsing: .unconditional, help: "When the timer ended (default: now): HH:MM, YYYY-MM-DDTHH:MM, -15m, now.")
        var at: String?

        @OptionGroup var options: TimerOptions

        func run() throws {
            try reportingFailures {
                let actions = try TimerPlace.actions(options.place, writing: true)
                let place = actions.backend.placeDescription
                let now = TimerPlace.now()
                let end = try TimerPlace.running(place) { () throws(TimerError) in
                    try at.map { text throws(TimerError) in try TimerInstant.milliseconds(of: text, now: now, timeZone: actions.backend.timeZone) } ?? now
                }
                let stopped = try TimerPlace.running(place) { () throws(TimerError) in try actions.stop(at: end, now: now) }
                let tags = (try? actions.tags()) ?? []
                if stopped.count > 1 { print("\(stopped.count) timers were running; stopped them all") }
                for timer in stopped {
                    let display = TimerDisplay(timers: [timer], tags: tags, now: end, actions: actions)
                    print("stopped " + display.formatted("%t").trimmingCharacters(in: .newlines)
                          + (timer.comment.map { ": " + TerminalText.escaped($0) } ?? "")
                          + " at " + actions.local(end, today: now) + " after " + TimerActions.elapsed(end - (timer.startTime ?? end)))
                }
            }
        }
    }
}
