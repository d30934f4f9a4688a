/// Finishing record moves between months that a killed process left half done (see `MoveJournal`;
/// the decisions are `Writing/RecordMoves.swift`'s).
extension Store {
    /// Finishes every journaled move: where the record reached its new month's document, it is
    /// deleted from the old one (its images still in the old folder move along); where it did not,
    /// the old document still holds it and nothing is done. Returns the ids whose moves were
    /// finished. A move that cannot be finished now (a document that does not load, a full disk)
    /// stays journaled for the next time; the first such error is thrown after the others were tried.
    @discardableResult
    public func finishInterruptedMoves() throws(StoreError) -> [String] {
        guard moves.journal != nil else { return [] }
        return try withDocumentWrites(.wholeStore) { () throws(StoreError) -> [String] in try moves.finishInterruptedMoves() }
    }
}
