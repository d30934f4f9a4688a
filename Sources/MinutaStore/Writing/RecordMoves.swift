import AutomergeKit

/// Records moved between months (SPEC section 4), after the save that moved them: the owner of the
/// journal of moves in progress (`MoveJournal`), of the moves remembered across mounts
/// (`MovedRecordMemory`), of the images that follow a record to its new month, and of the edits
/// another device made to a record after this store moved it.
///
/// Automerge keeps such edits on the record's object in the old month's document, where the record's
/// key is deleted, so they would show nowhere. After each synchronization, the fields of such an object
/// that changed since the move are carried to the record's new place; a field this store changed too
/// keeps this store's value, and the other device's is listed in `.minutafs/conflicts`. With a state
/// folder (a mount has one) moves are remembered across mounts, so an edit that arrives after a remount
/// is carried too; without one, for the life of the store object.
///
/// Every method runs in the write lanes its caller holds (`Store.withDocumentWrites`); documents change
/// only through `MonthReplicas.withCheckedOut`.
struct RecordMoves: Sendable {
    let replicas: MonthReplicas
    let documentFiles: DocumentFiles
    let events: StoreEvents
    /// Where moves between months are journaled; nil: not journaled (see `MoveJournal`).
    let journal: MoveJournal?
    /// Where the records this store moved are remembered across mounts (nil without a state folder).
    let memory: MovedRecordMemory?
    /// Where the store reports what happened to its files (the mount's log).
    let log: @Sendable (String) -> Void

    /// Remembers a move (called by the save that moves, under the lock; `rememberMovesOnDisk` writes it
    /// once the lock is released).
    func rememberMove(of id: String, object: ObjectID, from source: Month, document: Document, to destination: Month,
                      written: Document, state: inout MonthReplicas.State) {
        let move = MovedAway(source: source, object: object, destination: destination,
                             fieldsAtMove: RecordView.fields(of: id, object: object, in: document),
                             fieldsWritten: RecordView.fields(of: id, object: object, in: written), movedAt: replicas.now())
        state.movedAway.remember(move, of: RecordID(id))
    }

    /// Writes the moves to `MovedRecordMemory` (keeping its newest ones), with `state` released. A
    /// failure is logged: the edits it would carry stay in the old month's document, and this mount
    /// still carries them.
    func rememberMovesOnDisk() {
        guard let memory else { return }
        let moves = replicas.withState { $0.movedAway.all }
        do throws(StoreError) {
            let kept = try memory.save(moves)
            replicas.withState { state in state.movedAway.forgetNotKept(of: moves, kept: kept) }
        } catch {
            log("cannot remember moved records in \(memory.path): \(error)")
        }
    }

    /// Image files follow their record to its new month folder; those not (or no longer) in the old
    /// folder are skipped, names that are not plain file names are never used as paths.
    func moveImages(_ images: [String], from source: Month, to destination: Month) throws(StoreError) {
        for image in images where FieldRule.isValidFileName(image) {
            let from = replicas.absolute(source.folderPath + "/" + image)
            guard BackingFiles.status(from)?.isRegularFile == true else { continue }
            try BackingFiles.makeDirectories(replicas.absolute(destination.folderPath))
            try BackingFiles.move(from, to: replicas.absolute(destination.folderPath + "/" + image))
        }
    }

    /// Finishes every journaled move: where the record reached its new month's document, it is
    /// deleted from the old one (its images still in the old folder move along); where it did not,
    /// the old document still holds it and nothing is done. Returns the ids whose moves were
    /// finished. A move that cannot be finished now (a document that does not load, a full disk)
    /// stays journaled for the next time; the first such error is thrown after the others were tried.
    func finishInterruptedMoves() throws(StoreError) -> [String] {
        guard let journal else { return [] }
        var finished: [String] = []
        var firstFailure: StoreError?
        for move in journal.pending() {
            do throws(StoreError) {
                if try finishMove(move) { finished.append(move.id) }
                try journal.finish(move)
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        if let firstFailure { throw firstFailure }
        return finished
    }

    /// Deletes the record of `move` from its old month when its new month holds it; whether it did.
    private func finishMove(_ move: MoveJournal.Move) throws(StoreError) -> Bool {
        guard let target = try replicas.heldDocumentAndFile(of: move.destination)?.document,
              let arrived = RecordView.object(move.id, in: target) else { return false }
        let images = RecordView.images(of: arrived, in: target)
        let finished = try replicas.withCheckedOut(move.source) { (source: inout LoadedDocument) throws(StoreError) -> Bool in
            guard RecordView.object(move.id, in: source.document) != nil else { return false }
            try moveImages(images, from: move.source, to: move.destination)
            do { try source.document.delete(forKey: move.id) } catch { return false }
            source.invalidateView(changedRecord: move.id)
            try documentFiles.save(&source, to: move.source.documentPath)
            return true
        }
        return finished ?? false
    }

    /// Carries field changes merged into the old objects of moved records to their new place; returns
    /// the month folders (relative) whose records changed. Each new place is checked out, changed and
    /// written with `state` released.
    func carryEditsToMovedRecords() throws(StoreError) -> [String] {
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
            let changedAt = replicas.now()
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
            events.noteRejection(.rejected(file: moved.destination.folderPath + "/" + id, line: nil, column: nil, reason: error))
            return nil
        }
        target.document = editor.document
        target.invalidateView(changedRecord: id)
        try documentFiles.save(&target, to: moved.destination.documentPath)
        return conflicts
    }
}
