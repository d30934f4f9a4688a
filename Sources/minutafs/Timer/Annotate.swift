import ArgumentParser
import MinutaStore
import MinutaTimer

extension Minutafs {
    /// `minutafs annotate TEXT`: the comment of the running timer, or of the last record.
    struct Annotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "annotate",
            abstract: "Set the comment of the running timer (or of the last record when none runs).",
            discussion: """
                The newest running timer gets TEXT as its comment; when none runs, the record that \
                started last. `minutafs undo` sets the comment back. With the store mounted it is one \
                action of the mount (a request written to MOUNT/.minutafs/timer).

                Examples (the store named, or the one in ~/.config/minutafs/config):
                  minutafs annotate "sync bug"
                  minutafs annotate "call with Sam" ~/minuta
                """)

        @Argument(help: "The comment.")
        var text: String

        @OptionGroup var options: TimerOptions

        func validate() throws { try TimeZoneOption.validate(options.timezone) }

        func run() throws {
            try reportingFailures {
                let actions = try TimerPlace.actions(options.place, writing: true)
                let now = TimerPlace.now()
                // One action of the mount when mounted.
                let answer = try TimerPlace.perform(TimerRequest(action: .annotate, now: now, comment: text), actions: actions)
                guard let before = answer.annotated?.timer else {
                    throw CommandFailure(path: actions.backend.placeDescription, cause: "the answer names no record annotated")
                }
                print("annotated " + before.named(by: actions, now: now) + ": " + TerminalText.escaped(text))
            }
        }
    }
}
