import ArgumentParser
import MinutaStore
import MinutaTimer

extension Minutafs {
    /// `minutafs start`: starts a timer (a record with a start and no end).
    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Start a timer: a new record with a start time and no end.",
            discussion: """
                The record is filed like any new record, in the month of its start, and shows on every \
                device after the next sync. A timer already running is stopped at the same instant \
                (--keep leaves it running), unless it has run for more than a day: that one is named \
                with its age and how to end it (stop --id ID --at TIME). With the store mounted (by \
                anyone on this machine) the whole start is one action of the mount (a request written \
                to MOUNT/.minutafs/timer: two starts at once leave one timer running); otherwise the \
                store is changed directly, under its writer lock.

                --at takes HH:MM (today), YYYY-MM-DDTHH:MM (the store's time zone; Z or +02:00 for \
                another), an offset back from now (-15m, -1h30m) or now.

                Examples (the store named, or the one in ~/.config/minutafs/config):
                  minutafs start --tag work --at -1h
                  minutafs start --tag Work --comment "sync bug" ~/minuta
                  minutafs start --at -15m --keep ~/Dropbox/Minuta
                """)

        @Option(help: "The tag, by name (any case; an unarchived tag first) or by id.")
        var tag: String?

        @Option(help: "The record's comment.")
        var comment: String?

        @Option(parsing: .unconditional, help: "When the timer started (default: now): HH:MM, YYYY-MM-DDTHH:MM, -15m, now.")
        var at: String?

        @Flag(help: "Leave a running timer running.")
        var keep = false

        @OptionGroup var options: TimerOptions

        func run() throws {
            try reportingFailures {
                let actions = try TimerPlace.actions(options.place, writing: true)
                let now = TimerPlace.now()
                let requested = try TimerPlace.instant(at, now: now, actions: actions)
                let request = TimerRequest(action: .start, now: now, at: at == nil ? nil : requested, tag: tag, comment: comment, keep: keep,
                                           everyMonth: options.allMonths)
                let started = try TimerPlace.perform(request, actions: actions)
                let start = started.at ?? requested
                let tags = (try? actions.tags()) ?? []
                for stopped in started.stopped.compactMap(\.timer) {
                    print(TimerPlace.stoppedLine(stopped, at: start, now: now, tags: tags, actions: actions, showsTime: false))
                }
                TimerPlace.noteLeftRunning(started.leftRunning, now: now, actions: actions)
                let name = tag.flatMap { query in try? TagChoice.resolve(query, among: tags).name }
                print(TimerPlace.startedLine(tagName: name, comment: comment, at: start, now: now, actions: actions))
            }
        }
    }
}
