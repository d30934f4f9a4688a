import ArgumentParser
import MinutaStore
import MinutaTimer

extension Minutafs {
    /// `minutafs cancel`: the running timer was a mistake; it is removed (`timew cancel`).
    struct Cancel: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel",
            abstract: "Remove the running timer, as if it had never been started.",
            discussion: """
                Removes the record of the running timer. When several run, give --id (`minutafs now \
                --format %i` lists their ids); --id also reaches a timer of any month. Exit status 1 \
                when no timer runs. `minutafs undo` brings it back. With the store mounted the removal \
                is one action of the mount (a request written to MOUNT/.minutafs/timer).

                Examples (the store named, or the one in ~/.config/minutafs/config):
                  minutafs start --tag Work --comment oops ~/minuta
                  minutafs cancel ~/minuta
                """)

        @Option(help: ArgumentHelp("The running timer's record id.", valueName: "id"))
        var id: String?

        @OptionGroup var options: TimerOptions

        func validate() throws { try TimeZoneOption.validate(options.timezone) }

        func run() throws {
            try reportingFailures {
                let actions = try TimerPlace.actions(options.place, writing: true)
                let place = actions.backend.placeDescription
                let now = TimerPlace.now()
                // One action of the mount when mounted: the timer is gone from `now` at once.
                let answer = try TimerPlace.perform(TimerRequest(action: .cancel, now: now, id: id, everyMonth: options.allMonths), actions: actions)
                guard let removed = answer.removed?.timer else { throw CommandFailure(path: place, cause: "the answer names no timer removed") }
                let tags = (try? actions.tags()) ?? []
                let name = TimerDisplay(timers: [removed], tags: tags, now: now, actions: actions).formatted("%t", escape: TerminalText.escaped).trimmingCharacters(in: .newlines)
                print("cancelled " + name + (removed.comment.map { ": " + TerminalText.escaped($0) } ?? "")
                      + ", running since " + actions.local(removed.startTime ?? now, today: now) + " (its record is removed)")
            }
        }
    }
}
