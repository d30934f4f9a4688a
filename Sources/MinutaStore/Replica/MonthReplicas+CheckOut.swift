import AutomergeKit

/// How a change of a document runs without holding up readers: in its write lanes (`withDocumentWrites`: one change of a document at a
/// time), the document is checked out of `state` in a short hold, changed and written with `state`
/// released (the temporary file's fsync, the exchange, the folder's fsync), and checked in again in
/// another short hold. Meanwhile the month stays listed and readable as it was last saved: what it
/// leaves in `state` is its parked form (the bytes, identity and view it was last saved with), which a
/// reader may decode; the check-in replaces whatever is there.
extension MonthReplicas {
    /// Changes a month's document the one way it is done: checked out of `state` in a short hold (its
    /// parked form left for readers), changed by `change` with `state` released (the save's fsyncs and
    /// exchange included), and checked in again, so no path can forget to put it back:
    /// - when `change` returns and `keepsChange` says so, the changed document goes back in one hold of
    ///   `state` with `checkIn`, the bookkeeping that must be seen with it (change times, names moved);
    /// - when `change` throws or `keepsChange` says no, the month goes back as it was last saved
    ///   (decoded from its saved bytes with `state` released; forgotten when there are none).
    ///
    /// Nil, without calling `change`, when the month has no document file, unless `creatingEmpty`: then
    /// `change` works on a new empty document. Runs in the caller's write lanes (`withDocumentWrites`).
    ///
    /// A change whose `checkIn` looks at the month's view (to learn a record's new name) says which
    /// change times `checkIn` will note with `rendersNoting`: the view is then rendered before the
    /// check-in with `state` released (`renderCheckedOut`), and kept with the document if still current.
    func withCheckedOut<R: Sendable>(
        _ month: Month, creatingEmpty: Bool = false,
        change: (inout LoadedDocument) throws(StoreError) -> R,
        keepsChange: (R) -> Bool = { _ in true },
        rendersNoting: (R) -> [(id: RecordID, at: Int)]? = { _ in nil },
        checkIn: (inout State, R) -> R = { _, result in result }
    ) throws(StoreError) -> R? {
        let held = try checkOut(month)
        guard held != nil || creatingEmpty else { return nil }
        var loaded = held ?? LoadedDocument(document: Document(actor: actor), identity: nil, view: nil, savedChangeCount: -1)
        let result: R
        do throws(StoreError) { result = try change(&loaded) } catch {
            checkInAsLastSaved(loaded, as: month)
            throw error
        }
        guard keepsChange(result) else {
            checkInAsLastSaved(loaded, as: month)
            return result
        }
        let rendered = rendersNoting(result).flatMap { renderCheckedOut(loaded, of: month, noting: $0) }
        let changed = loaded
        return withState { state in
            var checkedIn = changed
            keepIfCurrent(rendered, as: &checkedIn, of: month, in: &state)
            state.months[month] = checkedIn
            return checkIn(&state, result)
        }
    }

    /// `withCheckedOut` for the tags document (`TagsReplica.withChange`): changed by `change` with no lock
    /// held, and put in place when `change` returns and `keepsChange` says so; when it throws or the
    /// change is not kept, the store goes on holding the tags as they were. Runs in the tags' write lane.
    func withTagsDocument<R: Sendable>(
        change: (inout LoadedDocument) throws(StoreError) -> R, keepsChange: (R) -> Bool = { _ in true }
    ) throws(StoreError) -> R {
        try tags.withChange(change, keepsChange: keepsChange)
    }

    /// The month's document, decoded, taken out of `state` for a change (its parked form left in its
    /// place); nil when the month has no document file.
    private func checkOut(_ month: Month) throws(StoreError) -> LoadedDocument? {
        return try withPrepared(month, needsDocument: true) { (state: inout State) throws(StoreError) -> LoadedDocument? in
            guard let loaded = try loadMonth(month, in: &state) else { return nil }
            leaveParkedForm(of: loaded, as: month, in: &state)
            return loaded
        }
    }

    /// Puts the parked form of `loaded` where the month's decoded document was: readers see the month
    /// as last saved while its change is written. A document with changes its file lacks has no such
    /// form: the month is then not held until the check-in (a reader loads the file).
    private func leaveParkedForm(of loaded: LoadedDocument, as month: Month, in state: inout State) {
        guard let bytes = loaded.savedBytes, loaded.savedFileIdentity != nil else {
            state.months[month] = nil
            return
        }
        // `hasConflicts` is not worked out for so short a time: true sends `conflictReport` to the bytes.
        state.months.park(month, as: ParkedMonth(bytes: bytes, identity: loaded.identity, view: loaded.view,
                                                 hasConflicts: true, lastReadHeads: loaded.lastReadHeads))
    }

    /// After a change of a checked-out month failed or was not kept: the month as it was last saved,
    /// decoded (without `state`) from the bytes it was saved as; when there are none, the month is
    /// forgotten and the next use loads the file.
    private func checkInAsLastSaved(_ edited: LoadedDocument, as month: Month) {
        let restored = lastSaved(edited)
        withState { state in state.months[month] = restored }
    }

    /// The month as it was last saved, after an edit of it failed or before a move: loaded again from
    /// the bytes it was saved as (the edit worked on the only copy). Nil when there are none: the next
    /// use loads the file.
    private func lastSaved(_ edited: LoadedDocument) -> LoadedDocument? {
        guard let bytes = edited.savedBytes, var document = try? Document.load(bytes) else { return nil }
        document.setActor(actor)
        var restored = LoadedDocument(document: document, identity: edited.identity, view: nil, savedChangeCount: document.changeCount,
                                      savedBytes: bytes, lastReadHeads: edited.lastReadHeads)
        restored.appendedBytes = edited.appendedBytes
        return restored
    }
}
