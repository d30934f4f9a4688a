import MinutaStore

/// The heads of one document before and after a timer action changed it: in the document's history,
/// the changes between the two are the action's, which `minutafs undo` sets back (SPEC 10).
public struct DocumentHeads: Codable, Sendable, Equatable {
    /// The month (`YYYY/MM`) whose document it is; nil for the tags document.
    public var month: String?
    /// The heads (change hashes, hex) before the action's first write, and after its last.
    public var before: [String]
    public var after: [String]

    public init(month: Month?, before: [String], after: [String]) {
        self.month = month?.yearSlashMonth
        self.before = before
        self.after = after
    }

    /// The month of the document; nil for the tags document, or a month this version cannot read.
    public var monthValue: Month? { month.flatMap { Month(yearSlashMonth: $0) } }
}
