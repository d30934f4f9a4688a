/// A record held by two month documents (one synced, the other not yet, or a move a killed process
/// left half done) is shown once (SPEC section 4); which copy is `MonthReplicas+RecordHolders.swift`'s decision.
extension Store {
    /// Says that ``indexRecordHolders()`` is about to run on another thread: month views rendered
    /// meanwhile do not build the index themselves (see `RecordHolderIndex.isBeingBuilt`).
    public func willIndexRecordHolders() {
        replicas.willIndexRecordHolders()
    }

    /// Builds the holder index if no month view has yet, reading the documents without the store's
    /// lock (the mount runs it in the background once it serves). Returns the documents (relative
    /// paths) of the months whose shown records it changes: records found held twice in months
    /// rendered before it was done.
    @discardableResult
    public func indexRecordHolders() -> [String] {
        replicas.indexRecordHolders()
    }

    /// A copy of a record that is not shown because the month of its start holds the record too.
    public struct HiddenCopy: Sendable, Equatable {
        public var id: String
        /// Where the copy that is not shown is.
        public var document: String
        /// The folder the record is shown in.
        public var shownIn: String
    }

    /// The records held twice whose second copy is not shown, by document.
    public var hiddenCopies: [HiddenCopy] {
        replicas.hiddenCopies
    }
}
