import MinutaStore

/// Why a timer command could not do its work, in words a new user can act on. `description` is the
/// line the command prints after `minutafs: `.
public enum TimerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--at` text that is none of the accepted forms.
    case unreadableInstant(String)
    /// `--at` that names an instant after now (a timer cannot start or stop in the future).
    case instantInFuture(String)
    /// A time outside the years 1 to 9999 in UTC, which is how the documents keep times.
    case outsideStoredYears(String)
    /// `stop --at` before the timer's start.
    case stopBeforeStart(stop: String, start: String)
    /// `--tag` names no tag; `candidates` are the tags one could mean.
    case unknownTag(String, candidates: [String])
    /// `--tag` names several tags.
    case ambiguousTag(String, candidates: [String])
    /// No timer runs (exit status 1, for `stop`).
    case noTimerRunning(String)
    /// No timer ran before (`continue`).
    case noEarlierTimer(String)
    /// Only timers running for more than a day run, and no `--at` said when they ended: each named.
    case onlyLongRunning([String])
    /// The store or the mount refused or failed (`file`: what, `reason`: why).
    case storeFailed(file: String, reason: String)
    /// `--tag` names only an archived tag and `--archived` was not given.
    case archivedTag(String, id: String)
    /// The interval overlaps records of the store (each named with its file and times), and `--adjust`
    /// was not given.
    case overlaps(interval: String, records: [String])
    /// `cancel --id`, `annotate`: no record (or no running timer) has that id.
    case noSuchTimer(String, place: String)
    /// `cancel` while several timers run: which one (each named).
    case severalRunning([String])
    /// `annotate`: the store has no record at all.
    case noRecord(String)
    /// `track`: an end not after the start.
    case endNotAfterStart(start: String, end: String)
    /// A wall-clock time the clocks skip in the store's zone; `before` and `after` are the valid
    /// times nearest to it (the last minute before the change, the first after).
    case skippedLocalTime(String, timeZone: String, before: String, after: String)
    /// A wall-clock time the clocks show twice; `first` and `second` are it with each offset.
    case repeatedLocalTime(String, timeZone: String, first: String, second: String)

    public var description: String {
        switch self {
        case .unreadableInstant(let text):
            return "\(TerminalText.quoted(text)): not a time; give HH:MM (today), YYYY-MM-DDTHH:MM, an offset from now such as -15m or -1h30m, or now"
        case .outsideStoredYears(let text):
            return "\(TerminalText.quoted(text)): that is outside the years 1 to 9999 in UTC, the times a record can hold"
        case .instantInFuture(let text):
            return "\(TerminalText.quoted(text)): that is in the future; give a time before now (a date such as 2024-11-24T09:30 for another day)"
        case let .stopBeforeStart(stop, start):
            return "--at \(stop) is before the timer's start (\(start)); give a later time"
        case let .unknownTag(name, candidates):
            return "no tag named \(TerminalText.quoted(name))"
                + (candidates.isEmpty ? "; the store has no tags" : "; the tags are: " + candidates.joined(separator: ", "))
        case let .ambiguousTag(name, candidates):
            return "several tags are named \(TerminalText.quoted(name)); give one by id: " + candidates.joined(separator: ", ")
        case .noTimerRunning(let place):
            return "no timer is running in \(place)"
        case .onlyLongRunning(let notes):
            return "nothing stopped: " + notes.joined(separator: "; ")
        case .noEarlierTimer(let place):
            return "no earlier timer in \(place) to continue; start one with minutafs start"
        case let .storeFailed(file, reason):
            // A store error names its file already.
            return reason.hasPrefix(file + ": ") ? reason : "\(file): \(reason)"
        case let .archivedTag(name, id):
            return "the tag \(TerminalText.quoted(name)) (\(id)) is archived; give --archived to use it anyway, or another tag"
        case let .overlaps(interval, records):
            return "\(interval) overlaps " + records.joined(separator: ", ") + "; give --adjust to trim "
                + (records.count == 1 ? "that record" : "those records") + " to make room"
        case let .noSuchTimer(id, place):
            return "no running timer has the id \(TerminalText.quoted(id)) in \(place); `minutafs now --format %i` lists their ids"
        case .severalRunning(let timers):
            return "\(timers.count) timers are running: " + timers.joined(separator: ", ") + "; give --id ID for one (`minutafs now --format %i` lists their ids)"
        case .noRecord(let place):
            return "no record in \(place) to annotate; start one with minutafs start"
        case let .endNotAfterStart(start, end):
            return "the end (\(end)) is not after the start (\(start)); give START - END with END later"
        case let .skippedLocalTime(text, zone, before, after):
            return "\(TerminalText.quoted(text)): that time does not exist in \(zone) (the clocks skip it); the nearest valid times are \(before) and \(after)"
        case let .repeatedLocalTime(text, zone, first, second):
            return "\(TerminalText.quoted(text)): that time happens twice in \(zone) (the clocks go back); give it with its offset: \(first) (the first) or \(second) (the second)"
        }
    }
}
