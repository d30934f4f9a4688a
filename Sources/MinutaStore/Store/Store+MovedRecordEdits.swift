/// Edits another device made to a record after this store moved it to another month (SPEC section 4),
/// carried to the record's new place: `RecordMoves`' decision (`Writing/RecordMoves.swift`).
extension Store {
    /// Carries field changes merged into the old objects of moved records to their new place; returns
    /// the month folders (relative) whose records changed. Runs holding the whole store's write lane.
    public func carryEditsToMovedRecords() throws(StoreError) -> [String] {
        try withDocumentWrites(.wholeStore) { () throws(StoreError) -> [String] in try moves.carryEditsToMovedRecords() }
    }
}
