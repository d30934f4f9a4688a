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
                started last. `minutafs undo` sets the comment back.

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
                let before = try TimerPlace.running(actions.backend.placeDescription) { () throws(TimerError) in
                    try actions.annotate(text, now: now)
                }
                UndoJournal.record([.changedRecord(before: before)], command: "annotate", actions: actions)
                print("annotated " + before.named(by: actions, now: now) + ": " + TerminalText.escaped(text))
            }
        }
    }
}
