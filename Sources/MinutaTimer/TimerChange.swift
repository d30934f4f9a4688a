import MinutaStore

/// One change a terminal command made to the store, as its answer reports it: what was created (by
/// id), and what a changed or removed record was before (its JSON, id included). (`undo` finds the
/// changes in the documents' history instead, see ``DocumentHeads``.)
public enum TimerChange: Sendable {
    /// A record the command created.
    case createdRecord(id: String, month: Month)
    /// A record the command changed or removed, as it was before.
    case changedRecord(before: TimerRecord)
    case removedRecord(before: TimerRecord)
    /// A tag the command created.
    case createdTag(id: String, name: String)
}
