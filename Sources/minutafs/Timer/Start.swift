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

                --at takes HH:MM (today, or yesterday when later than now), YYYY-MM-DDTHH:MM (the \
                store's time zone; Z or +02:00 for another), an offset back from now (-15m, -1h30m) \
                or now. A time the clocks skip or repeat (a daylight-saving change) is refused with \
                the valid choices; give the offset (2026-10-25T02:30+01:00). A start that overlaps an \
                ended record is refused, naming it, unless --adjust trims that record (or --keep, which \
                keeps timers side by side, allows it). A --tag name no \
                tag has creates the tag (with a color of the Tableau 10 palette, said in the output); \
                an archived tag needs --archived. `minutafs undo` sets it all back.

                Examples (the store named, or the one in ~/.config/minutafs/config):
                  minutafs start --tag work --at -1h
                  minutafs start --tag Work --comment "sync bug" ~/minuta
                  minutafs start --tag Reading --keep ~/Dropbox/Minuta
                """)

        @Option(help: "The tag, by name (any case; an unarchived tag first) or by id.", completion: TimerCompletions.tag)
        var tag: String?

        @Option(help: "The record's comment.")
        var comment: String?

        @Option(parsing: .unconditional, help: "When the timer started (default: now): HH:MM, YYYY-MM-DDTHH:MM, -15m, now.", completion: TimerCompletions.at)
        var at: String?

        @Flag(help: "Leave a running timer running, and allow overlaps with other records (timers side by side).")
        var keep = false

        @Flag(help: "Trim records the new timer overlaps (as timew :adjust) instead of refusing.")
        var adjust = false

        @Flag(help: "Allow an archived tag.")
        var archived = false

        @OptionGroup var options: TimerOptions

        func run() throws {
            try reportingFailures {
                let actions = try TimerPlace.actions(options.place, writing: true)
                let now = TimerPlace.now()
                let requested = try TimerPlace.instant(at, now: now, actions: actions)
                // Room among ended records (--adjust), the tag (created when unknown) and the timer: one
                // action, of the mount when the store is mounted.
                let request = TimerRequest(action: .start, now: now, at: at == nil ? nil : requested, tag: tag, comment: comment, keep: keep,
                                           everyMonth: options.allMonths, adjust: adjust, archived: archived)
                let started = try TimerPlace.perform(request, actions: actions)
                let start = started.at ?? requested
                let tags = (try? actions.tags()) ?? []
                for stopped in started.stopped.compactMap(\.timer) {
                    print(TimerPlace.stoppedLine(stopped, at: start, now: now, tags: tags, actions: actions, showsTime: false))
                }
                TimerPlace.noteLeftRunning(started.leftRunning, now: now, actions: actions)
                print(TimerPlace.startedLine(tagName: started.tagName, comment: comment, at: start, now: now, actions: actions))
            }
        }
    }
}
