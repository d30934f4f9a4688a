import AutomergeKit

/// How a change of a document runs without holding up readers: under `documentWrites` (one change at a
/// time), the document is checked out of `state` in a short hold, changed and written with `state`
/// released (the temporary file's fsync, the exchange, the folder's fsync), and checked in again in
/// another short hold. Meanwhile the month stays listed and readable as it was last saved: what it
/// leaves in `state` is its parked form (the bytes, identity and view it was last saved with), which a
/// reader may decode; the check-in replaces whatever is there.
extension Store {
    /// The month's document, decoded, taken out of `state` for a change (its parked form left in its
    /// place); nil when the month has no document file.
    func checkOut(_ month: Month) throws(StoreError) -> LoadedDocument? {
        prepareToRender(month, needsDocument: true)
        return try withState { (state: inout State) throws(StoreError) -> LoadedDocument? in
            guard let loaded = try loadMonth(month, in: &state) else { return nil }
            leaveParkedForm(of: loaded, as: month, in: &state)
            return loaded
        }
    }

    /// Puts the parked form of `loaded` where the month's decoded document was: readers see the month
    /// as last saved while its change is written. A document with changes its file lacks has no such
    /// form: the month is then not held until the check-in (a reader loads the file).
    func leaveParkedForm(of loaded: LoadedDocument, as month: Month, in state: inout State) {
        guard let bytes = loaded.savedBytes, loaded.identity != nil,
              loaded.document.changeCount == loaded.savedChangeCount else {
            state.months[month] = nil
            return
        }
        // `hasConflicts` is not worked out for so short a time: true sends `conflictReport` to the bytes.
        state.months.park(month, as: ParkedMonth(bytes: bytes, identity: loaded.identity, view: loaded.view,
                                                 hasConflicts: true, lastReadHeads: loaded.lastReadHeads))
    }

    /// After a change of a checked-out month failed: the month as it was last saved, decoded (without
    /// `state`) from the bytes it was saved as; when there are none, the month is forgotten and the next
    /// use loads the file.
    func checkInAfterFailure(_ edited: LoadedDocument, as month: Month) {
        let restored = restoredAfterFailedEdit(edited)
        withState { state in state.months[month] = restored }
    }

    /// Writes the moves to `MovedRecordMemory` (keeping its newest ones), with `state` released. A
    /// failure is logged: the edits it would carry stay in the old month's document, and this mount
    /// still carries them.
    func rememberMovesOnDisk() {
        guard let movedRecordMemory else { return }
        let moves = withState { $0.movedAway }
        do throws(StoreError) {
            let kept = try movedRecordMemory.save(moves)
            withState { state in
                for key in state.movedAway.keys where kept[key] == nil && moves[key] != nil { state.movedAway[key] = nil }
            }
        } catch {
            log("cannot remember moved records in \(movedRecordMemory.path): \(error)")
        }
    }
}
