import ArgumentParser
import MinutaStore
import MinutaTimer

extension Minutafs {
    /// `minutafs continue`: starts again what was tracked last.
    struct Continue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "continue",
            abstract: "Start a timer with the tag and comment of the last one that ended.",
            discussion: """
                Like `minutafs start --tag T --comment C`, with T and C taken from the timer that \
                started last among those that ended (in the last 62 days, or every month with \
                --all-months). A running timer is stopped at the same instant unless --keep.

                Example:
                  minutafs continue ~/minuta
                """)

        @Option(parsing: .unconditional, help: "When the timer started (default: now): HH:MM, YYYY-MM-DDTHH:MM, -15m, now.", completion: TimerCompletions.at)
        var at: String?

        @Flag(help: "Leave a running timer running.")
        var keep = false

        @OptionGroup var options: TimerOptions

        func run() throws {
            try reportingFailures {
                let actions = try TimerPlace.actions(options.place, writing: true)
                let place = actions.backend.placeDescription
                let now = TimerPlace.now()
                let requested = try TimerPlace.instant(at, now: now, actions: actions)
                let request = TimerRequest(action: .continue, now: now, at: at == nil ? nil : requested, keep: keep, everyMonth: options.allMonths)
                let started = try TimerPlace.perform(request, actions: actions)
                let start = started.at ?? requested
                guard let last = started.continued?.timer else { throw CommandFailure(path: place, cause: "the answer names no timer continued") }
                let tags = (try? actions.tags()) ?? []
                for stopped in started.stopped.compactMap(\.timer) {
                    print(TimerPlace.stoppedLine(stopped, at: start, now: now, tags: tags, actions: actions, showsTime: false))
                }
                TimerPlace.noteLeftRunning(started.leftRunning, now: now, actions: actions)
                let name = TimerDisplay(timers: [last], tags: tags, now: start, actions: actions).formatted("%t", escape: { $0 }).trimmingCharacters(in: .newlines)
                print(TimerPlace.startedLine(tagName: name, comment: last.comment, at: start, now: now, actions: actions))
            }
        }
    }
}
