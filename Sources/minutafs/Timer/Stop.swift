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

                Examples (the store named, or the one in ~/.config/minutafs/config):
                  minutafs stop --at -5m
                  minutafs start ~/minuta
                  minutafs stop ~/minuta
                """)

        @Option(parsing: .unconditional, help: "When the timer ended (default: now): HH:MM, YYYY-MM-DDTHH:MM, -15m, now.", completion: TimerCompletions.at)
        var at: String?

        @OptionGroup var options: TimerOptions

        func run() throws {
            try reportingFailures {
                let actions = try TimerPlace.actions(options.place, writing: true)
                let now = TimerPlace.now()
                let end = try TimerPlace.instant(at, now: now, actions: actions)
                let stopped = try TimerPlace.running(actions.backend.placeDescription) { () throws(TimerError) in
                    try actions.stop(at: end, now: now)
                }
                UndoJournal.record(stopped.map { .changedRecord(before: $0) }, command: "stop", actions: actions)
                let tags = (try? actions.tags()) ?? []
                if stopped.count > 1 { print("\(stopped.count) timers were running; stopped them all") }
                for timer in stopped {
                    print(TimerPlace.stoppedLine(timer, at: end, now: now, tags: tags, actions: actions, showsTime: true))
                }
            }
        }
    }
}
