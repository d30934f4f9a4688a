/// One timer action as `minutafs start`, `stop`, `continue`, `now`, `cancel`, `track`, `annotate` and `undo` hand it over (SPEC 10): carried out
/// directly on a store that is not mounted, or written to a mount's `.minutafs/timer` as JSON, where the
/// mount carries out the whole of it at once and answers on the same handle (`TimerAnswer`).
public struct TimerRequest: Codable, Sendable, Equatable {
    public enum Action: String, Codable, Sendable {
        case start, stop, `continue`, now, cancel, track, annotate, undo
    }

    public var action: Action
    /// The command's clock, milliseconds since the epoch.
    public var now: Int64
    /// `--at`: when the timer started (`start`, `continue`) or ended (`stop`); `track`'s start; nil for `now`.
    public var at: Int64?
    /// `track`'s end.
    public var end: Int64?
    /// `--tag` as given (a name or an id).
    public var tag: String?
    /// The record's comment (`annotate`: the new one).
    public var comment: String?
    /// `--keep`: leave running timers running.
    public var keep: Bool
    /// `stop --id`, `cancel --id`: only this timer.
    public var id: String?
    /// `--all-months`: read every month again for running timers (rebuilds the index).
    public var everyMonth: Bool
    /// `start --adjust`: trim the records the new timer overlaps instead of refusing.
    public var adjust: Bool
    /// `start --archived`: allow an archived tag.
    public var archived: Bool
    /// `undo`: the documents whose changes between these heads are set back (the undo journal's,
    /// which stays on the command's machine).
    public var documents: [DocumentHeads]

    public init(action: Action, now: Int64, at: Int64? = nil, end: Int64? = nil, tag: String? = nil, comment: String? = nil,
                keep: Bool = false, id: String? = nil, everyMonth: Bool = false, adjust: Bool = false, archived: Bool = false,
                documents: [DocumentHeads] = []) {
        self.action = action
        self.now = now
        self.at = at
        self.end = end
        self.tag = tag
        self.comment = comment
        self.keep = keep
        self.id = id
        self.everyMonth = everyMonth
        self.adjust = adjust
        self.archived = archived
        self.documents = documents
    }
}
