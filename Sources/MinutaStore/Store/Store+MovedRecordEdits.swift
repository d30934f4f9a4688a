import AutomergeKit

/// Edits another device made to a record after this store moved it to another month (SPEC section 4):
/// Automerge keeps them on the record's object in the old month's document, where the
/// record's key is deleted, so they would show nowhere. After each synchronization, the fields of such
/// an object that changed since the move are carried to the record's new place; a field this store
/// changed too keeps this store's value, and the other device's is listed in `.minutafs/conflicts`.
///
/// With a state folder (a mount has one) moves are remembered across mounts (`MovedRecordMemory`), so an
/// edit that arrives after a remount is carried too; without one, for the life of the store object.
extension Store {
    /// Remembers a move (called by `move`, under the lock; `rememberMovesOnDisk` writes it once the lock is released).
    func rememberMove(of id: String, object: ObjectID, from source: Month, document: Document, to destination: Month,
                      written: Document, state: inout State) {
        let move = MovedAway(source: source, object: object, destination: destination,
                             fieldsAtMove: RecordView.fields(of: id, object: object, in: document),
                             fieldsWritten: RecordView.fields(of: id, object: object, in: written), movedAt: now())
        state.movedAway.remember(move, of: RecordID(id))
    }

    /// Carries field changes merged into the old objects of moved records to their new place; returns
    /// the month folders (relative) whose records changed. Runs holding the whole store's write lane; each new place is
    /// checked out, changed and written with `state` released.
    public func carryEditsToMovedRecords() throws(StoreError) -> [String] {
        try withDocumentWrites(.wholeStore) { () throws(StoreError) -> [String] in
            // Only old documents held decoded: one not merged into since it was loaded has nothing new.
            let moves = replicas.withState { state in
                state.movedAway.all.compactMap { key, moved in state.months[moved.source].map { (key: key, moved: moved, old: $0.document) } }
            }
            var changed: [String] = []
            for (key, moved, old) in moves.sorted(by: { $0.key < $1.key }) {
                let fieldsNow = RecordView.fields(of: key.text, object: moved.object, in: old)
                let theirs = fieldsNow.filter { field in
                    !moved.fieldsAtMove.contains { $0.key == field.key && $0.value == field.value }
                }
                guard !theirs.isEmpty else { continue }
                let changedAt = now()
                let carried = try replicas.withCheckedOut(moved.destination, change: { (target: inout LoadedDocument) throws(StoreError) -> [String]? in
                    try carry(theirs, of: key, moved: moved, into: &target)
                }, checkIn: { state, carried in
                    guard let carried else { return nil }
                    events.noteConflicts(carried)
                    state.movedAway.noteCarried(key, fieldsNow: fieldsNow)
                    state.recentChanges.noteChange(of: key, at: changedAt)
                    return carried
                })
                if case .some(.some) = carried { changed.append(moved.destination.folderPath) }
            }
            if !changed.isEmpty { rememberMovesOnDisk() }
            return changed
        }
    }

    /// Applies `theirs` (fields another device changed on the old object) to the record's new place in
    /// `target` and saves it; returns the `.minutafs/conflicts` lines for fields both changed, or nil
    /// when nothing was carried (the record is gone from there, or the fields were refused).
    private func carry(
        _ theirs: [(key: String, value: JSONValue)], of key: RecordID, moved: MovedAway, into target: inout LoadedDocument
    ) throws(StoreError) -> [String]? {
        guard let id = key.key(among: target.document.keys(of: .root)),
              let object = RecordView.object(id, in: target.document) else { return nil }
        let current = RecordView.fields(of: id, object: object, in: target.document)
        var desired = current
        var conflicts: [String] = []
        for field in theirs {
            let written = moved.fieldsWritten.first { $0.key == field.key }?.value
            let atMove = moved.fieldsAtMove.first { $0.key == field.key }?.value
            if written != atMove, let written, written != field.value {
                // Both changed it: this store's value stays, theirs is listed.
                conflicts.append("\(moved.destination.folderPath)/\(id): \(field.key): shows \(written.oneLine); "
                    + "also written concurrently (on another device, before the record moved from \(moved.source.folderPath)): \(field.value.oneLine)\n")
            } else if let index = desired.firstIndex(where: { $0.key == field.key }) {
                desired[index].value = field.value
            } else {
                desired.append(field)
            }
        }
        var editor = ObjectEditor(document: target.document, object: object, rules: FieldRule.record)
        do throws(RecordInputError) { try editor.apply(desired, currentView: current) } catch {
            recordRejection(.rejected(file: moved.destination.folderPath + "/" + id, line: nil, column: nil, reason: error))
            return nil
        }
        target.document = editor.document
        target.invalidateView(changedRecord: id)
        try documentFiles.save(&target, to: moved.destination.documentPath)
        return conflicts
    }
}
