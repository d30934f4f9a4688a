import ArgumentParser
import MinutaStore
import MinutaTimer

extension Minutafs {
    /// `minutafs stop`: ends the running timer.
    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stop",
            abstract: "Stop the running timer (every one, if several run).",
            discussion: """
                Sets the end of each running timer (a record without an end) to now. A timer running \
                for more than a day is left running and named with its age and how to end it: it is \
                stopped only when --at says when it ended (then every running timer ends then); --id \
                stops only that timer. Exit status 1, with a message, when no timer runs, or only such \
                old ones without --at. --at takes the forms `start --at` takes. With the store mounted \
                the stop is one action of the mount (a request written to MOUNT/.minutafs/timer).

                Examples (the store named, or the one in ~/.config/minutafs/config):
                  minutafs stop --at -5m
                  minutafs start ~/minuta
                  minutafs stop ~/minuta
                """)

        @Option(parsing: .unconditional, help: "When the timer ended (default: now): HH:MM, YYYY-MM-DDTHH:MM, -15m, now.", completion: TimerCompletions.at)
        var at: String?

        @Option(help: "Stop only the timer with this record id (or the start of it).")
        var id: String?

        @OptionGroup var options: TimerOptions

        func run() throws {
            try reportingFailures {
                let actions = try TimerPlace.actions(options.place, writing: true)
                let now = TimerPlace.now()
                let requested = try TimerPlace.instant(at, now: now, actions: actions)
                let request = TimerRequest(action: .stop, now: now, at: at == nil ? nil : requested, id: id, everyMonth: options.allMonths)
                let answer = try TimerPlace.perform(request, actions: actions)
                let end = answer.at ?? requested
                let stopped = answer.stopped.compactMap(\.timer)
                let tags = (try? actions.tags()) ?? []
                if stopped.count > 1 { print("\(stopped.count) timers were running; stopped them all") }
                for timer in stopped {
                    print(TimerPlace.stoppedLine(timer, at: end, now: now, tags: tags, actions: actions, showsTime: true))
                }
                TimerPlace.noteLeftRunning(answer.leftRunning, now: now, actions: actions)
            }
        }
    }
}
