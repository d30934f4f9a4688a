/// One record (or tag) that differs between two past states of its document, with its value now: what
/// `minutafs undo` needs to set back the changes a command made, and to see whether another device
/// or an edit changed it again since (``Store/changedObjects(of:from:to:)``).
public struct HistoryChange: Sendable, Equatable {
    /// The record's (or tag's) id.
    public var id: String
    /// Its JSON (as its file shows it) in the earlier state; nil when it did not exist then.
    public var before: JSONValue?
    /// Its JSON in the later state; nil when it was removed.
    public var after: JSONValue?
    /// Its JSON now; nil when it is gone.
    public var now: JSONValue?

    public init(id: String, before: JSONValue?, after: JSONValue?, now: JSONValue?) {
        self.id = id
        self.before = before
        self.after = after
        self.now = now
    }

    /// Whether a field of it now holds a value another device wrote concurrently with the later state,
    /// which it did not then: it shows as it did, but a change arrived since (`.minutafs/conflicts`
    /// lists the other value).
    public var gainedConcurrentValues = false

    /// Whether nothing changed it since the later state: it shows the same, and no concurrent value
    /// arrived for it.
    public var isUnchangedSince: Bool { now == after && !gainedConcurrentValues }
}
