import ArgumentParser
import MinutaStore
import MinutaTimer

extension Minutafs {
    /// `minutafs track START - END`: a past interval, as `timew track` records it.
    struct Track: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "track",
            abstract: "Record a past interval: a record with a start and an end.",
            discussion: """
                START and END take the forms `start --at` takes (HH:MM, YYYY-MM-DDTHH:MM, -1h30m, now), \
                with a lone - between them; a clock time later than now is yesterday's, and an END given \
                as a clock time is read after START (`23:00 - 01:00` ends at 01:00 the next day). It may be used \
                while a timer runs. An interval that overlaps a record of the store is refused, naming \
                that record, unless --adjust, which trims the other record (as timew :adjust). An \
                unknown --tag name creates the tag. `minutafs undo` removes the record again. With the \
                store mounted the whole track (the check, the tag, the record) is one action of the \
                mount (a request written to MOUNT/.minutafs/timer).

                Examples (the store named, or the one in ~/.config/minutafs/config):
                  minutafs track 2024-11-23T09:00 - 2024-11-23T10:30 --tag Reading
                  minutafs track --comment review -- -2h - -1h30m ~/minuta
                """)

        @Argument(help: ArgumentHelp("START - END, then the store or its mount (default: as for start); put -- first when START begins with -.", valueName: "interval"))
        var words: [String] = []

        @Option(help: "The tag, by name (any case) or id; a name no tag has creates the tag.")
        var tag: String?

        @Option(help: "The record's comment.")
        var comment: String?

        @Flag(help: "Trim records the interval overlaps (as timew :adjust) instead of refusing.")
        var adjust = false

        @Flag(help: "Allow an archived tag.")
        var archived = false

        @Option(help: "The store's time zone when it is not mounted (default: the machine's). A mount uses its own.")
        var timezone: String?

        func validate() throws {
            try TimeZoneOption.validate(timezone)
            let words = self.words.filter { $0 != "--" }
            guard words.count == 3 || words.count == 4, words[1] == "-" else {
                throw ValidationError("give the interval as START - END (a lone - between), such as 09:00 - 10:30; a start like -2h needs -- before it")
            }
        }

        func run() throws {
            let words = self.words.filter { $0 != "--" }
            try reportingFailures {
                let options = TimerPlace.Options(path: words.count == 4 ? words[3] : nil, timeZone: timezone, searchesAllMonths: false)
                let actions = try TimerPlace.actions(options, writing: true)
                let place = actions.backend.placeDescription
                let now = TimerPlace.now()
                let start = try TimerPlace.instant(words[0], now: now, actions: actions)
                // A clock time ends the interval after its start: `23:00 - 01:00` is two hours.
                let end = try TimerPlace.running(place) { () throws(TimerError) in
                    try TimerInstant.milliseconds(ofEnd: words[2], after: start, now: now, timeZone: actions.backend.timeZone)
                }
                // The overlap check, the tag (created when unknown) and the record: one action, of the
                // mount when the store is mounted.
                let request = TimerRequest(action: .track, now: now, at: start, end: end, tag: tag, comment: comment,
                                           adjust: adjust, archived: archived)
                let tracked = try TimerPlace.perform(request, actions: actions)
                print("tracked " + TerminalText.escaped(tracked.tagName ?? "(no tag)") + (comment.map { ": " + TerminalText.escaped($0) } ?? "")
                      + " from " + actions.local(start, today: now) + " to " + actions.local(end, today: start)
                      + " (" + ReportDuration.hoursAndMinutes(end - start) + ") in " + place)  // rounded as reports round it
            }
        }
    }
}
