import ArgumentParser
import MinutaStore
import MinutaTimer

extension Minutafs {
    /// `minutafs undo`: sets the store back to before the last terminal command.
    struct Undo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo",
            abstract: "Set the store back to before the last start, stop, continue, track, cancel or annotate.",
            discussion: """
                The changes the last terminal command made are found in the documents' history \
                and set back by a new change that every device gets (as `minutafs restore` does): a \
                record it created is removed, a record it changed or removed gets its values back, a \
                tag it created is removed. A record or tag that another device (or an edit) changed \
                again since, or gave a value concurrent with the command's that was merged since, is \
                left as it is, and named with what changed: set it back from \
                MOUNT/.minutafs/history with `minutafs restore` if that is wanted. Which documents the \
                last command changed, and their heads before and after it, are kept on this machine \
                only, in $XDG_STATE_HOME/minutafs/ (else ~/.local/state/minutafs/), never in the \
                synced folder; one command is kept, and undo forgets it. Exit status 1 when there is \
                nothing to undo, the last command changed another store, or a record or tag was left \
                because it changed since. With the store mounted the whole undo is one action of the mount (a \
                request written to MOUNT/.minutafs/timer).

                Examples (the store named, or the one in ~/.config/minutafs/config):
                  minutafs track 2024-11-23T09:00 - 2024-11-23T10:00 --tag Work ~/minuta
                  minutafs undo ~/minuta
                """)

        @OptionGroup var options: TimerOptions

        func validate() throws { try TimeZoneOption.validate(options.timezone) }

        func run() throws {
            try reportingFailures {
                let actions = try TimerPlace.actions(options.place, writing: true)
                let place = actions.backend.placeDescription
                guard let journal = UndoJournal.load() else {
                    throw CommandFailure(path: place, cause: "nothing to undo: no terminal command has changed a store since the last undo", separator: ": ")
                }
                let identity = UndoJournal.storeIdentity(of: actions)
                guard journal.store == identity else {
                    throw CommandFailure(path: place, cause: "the last terminal command (\(journal.command)) changed another store, \(journal.store); give that one", separator: ": ")
                }
                // One action of the mount when mounted: what it removes is gone from `now` at once (an
                // unlink through the mount is carried out only after its grace period).
                let request = TimerRequest(action: .undo, now: TimerPlace.now(), documents: journal.documents)
                let answer = try TimerPlace.perform(request, actions: actions)
                UndoJournal.forget()
                if !answer.lines.isEmpty {
                    print("undid \(journal.command) in \(place):")
                    for line in answer.lines { print("  " + line) }
                }
                if !answer.left.isEmpty {
                    let part = answer.lines.isEmpty ? "nothing" : "not all"
                    throw CommandFailure(path: place, cause: "\(part) of \(journal.command) was undone:\n  " + answer.left.joined(separator: "\n  "), separator: ": ")
                }
            }
        }
    }
}
