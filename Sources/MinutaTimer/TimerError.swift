import MinutaStore

/// Why a timer command could not do its work, in words a new user can act on. `description` is the
/// line the command prints after `minutafs: `.
public enum TimerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `--at` text that is none of the accepted forms.
    case unreadableInstant(String)
    /// `--at` that names an instant after now (a timer cannot start or stop in the future).
    case instantInFuture(String)
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

    public var description: String {
        switch self {
        case .unreadableInstant(let text):
            return "--at \(TerminalText.quoted(text)): not a time; give HH:MM (today), YYYY-MM-DDTHH:MM, an offset from now such as -15m or -1h30m, or now"
        case .instantInFuture(let text):
            return "--at \(TerminalText.quoted(text)): that is in the future; give a time before now (a date such as 2024-11-24T09:30 for another day)"
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
            return "\(file): \(reason)"
        }
    }
}
