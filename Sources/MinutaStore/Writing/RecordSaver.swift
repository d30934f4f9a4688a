import AutomergeKit

/// Record saves (SPEC section 4): a record file's JSON becomes the smallest change to its record, in the
/// document that holds it, or a move to the month of its new start. The owner of the decisions a save
/// makes: which record a write is (``recordWritten(_:named:in:displayPath:)``), what its fields become
/// given the merges its writer had not seen (SPEC 5b), which month it belongs in (``filingMonth(previousStart:newStart:holder:timeZone:)``),
/// how a move is carried out (``RecordMoves``), and the bookkeeping of its check-in (change time, former
/// name). Runs in the write lanes `Store` claimed for it; documents change only through
/// `MonthReplicas.withCheckedOut`.
struct RecordSaver: Sendable {
    let replicas: MonthReplicas
    let documentFiles: DocumentFiles
    let events: StoreEvents
    let moves: RecordMoves

    /// A record file's JSON as written: its members, where each field is in the text, and its `id`.
    struct WrittenRecord {
        var members: [(key: String, value: JSONValue)]
        var locations: [String: (line: Int, column: Int)]
        var id: String?
    }

    /// A record write done under `withCheckedOut`: saved where the record was, or to be moved to another month.
    private enum RecordEdit: Sendable {
        case saved(Store.WriteOutcome, conflictLines: [String], changedAt: Int)
        case moving(to: Month, object: ObjectID, edited: Document, conflictLines: [String], changedAt: Int)
    }

    static func reject(_ reason: RecordInputError, _ file: String, _ locations: [String: (line: Int, column: Int)]) -> StoreError {
        if case .syntax(let syntax) = reason { return .rejected(file: file, line: syntax.line, column: syntax.column, reason: reason) }
        let location = reason.field.flatMap { locations[$0] }
        return .rejected(file: file, line: location?.line ?? 1, column: location?.column ?? 1, reason: reason)
    }

    /// Parses a written record file: a JSON object whose `id`, if any, is a UUID string.
    /// - Throws: ``StoreError/rejected(file:line:column:reason:)`` naming `displayPath` and where in it.
    static func parse(_ bytes: [UInt8], displayPath: String) throws(StoreError) -> WrittenRecord {
        let parsed: JSONValue
        let locations: [String: (line: Int, column: Int)]
        do {
            (parsed, locations) = try JSONParser.parseWithLocations(bytes)
        } catch {
            throw reject(.syntax(error), displayPath, [:])
        }
        guard case .object(let members) = parsed else { throw reject(.notAnObject(expected: "a JSON object with the record's fields"), displayPath, [:]) }
        var writtenID: String?
        if let idValue = parsed["id"] {
            guard case .string(let text) = idValue, UUIDText.isValid(text) else {
                if case .string(let text) = idValue { throw reject(.invalidID(text), displayPath, locations) }
                throw reject(.wrongType(field: "id", expected: "a UUID string"), displayPath, locations)
            }
            writtenID = text
        }
        return WrittenRecord(members: members, locations: locations, id: writtenID)
    }

    /// The month document a written record belongs in. A record stays in the document that holds it
    /// (the app files by the phone's zone, which may differ from the store's) unless the write changed
    /// its start to an instant outside that document's month in the store's zone; a new record goes
    /// to the month of its start. `previousStart` is nil for a new record, `.some(nil)` for one without
    /// a start.
    static func filingMonth(previousStart: Int64??, newStart: Int64?, holder: Month, timeZone: StoreTimeZone) -> Month {
        guard let newStart, let startMonth = timeZone.month(ofMilliseconds: newStart) else { return holder }
        if let previousStart, previousStart == newStart { return holder }
        return startMonth
    }

    /// Which record a write to `name` is: the file's own, or the one the written id names (in any
    /// month), or nil for a new one; with the month whose document holds it, and whether `month` lists
    /// it under `name` (`isListedUnderName`: not a name it had moments ago, not found by its id).
    private func recordWritten(
        _ written: WrittenRecord, named name: String, in month: Month, displayPath: String, createsFile: Bool
    ) throws(StoreError) -> (id: String, month: Month, isListedUnderName: Bool)? {
        let shown = try replicas.withPrepared(month) { (state: inout MonthReplicas.State) throws(StoreError) -> (id: String, month: Month, isListedUnderName: Bool)? in
            var shown = try replicas.recordFileLocked(named: name, in: month, state: &state)
            if let file = shown, let writtenID = written.id, RecordID(writtenID) != RecordID(file.record.id),
               try replicas.monthView(month, in: &state)?.indexByName[name] == nil {
                // The name only resolves through a recent save under another name (`tmp.json` of an earlier
                // `jq … > tmp.json && mv tmp.json f`): the id says which record this is.
                shown = nil
            }
            if let file = shown {
                if let writtenID = written.id, RecordID(writtenID) != RecordID(file.record.id) {
                    throw Self.reject(.idOfAnotherRecord(writtenID), displayPath, written.locations)
                }
                if createsFile && written.id == nil {
                    // The writer created this file, new, and a record was filed under its name meanwhile
                    // (another save's start, a delivery): saving into it would overwrite a record it never saw.
                    throw Self.reject(.nameTakenWhileCreated, displayPath, written.locations)
                }
                let listed = file.month == month ? try replicas.monthView(month, in: &state)?.indexByName[name] : nil
                let isListed = listed != nil
                return (file.record.id, file.month, isListed)
            }
            return nil
        }
        if let shown { return shown }
        guard let writtenID = written.id, let found = try findRecord(writtenID, preferring: month) else { return nil }
        return (found.id, found.month, false)
    }

    /// Finds a record by id (any case), in `month` first, then in every month. Each month is read as a
    /// reader reads it: loaded, if it must be, without the state lock.
    private func findRecord(_ id: String, preferring month: Month) throws(StoreError) -> (id: String, month: Month)? {
        let key = RecordID(id)
        for candidate in [month] + (try replicas.listing.months()).filter({ $0 != month }) {
            if let file = try replicas.recordFiles(in: candidate).first(where: { RecordID($0.id) == key }) {
                return (file.id, candidate)
            }
        }
        return nil
    }

    /// Saves a written record holding the lanes `held`: `.needs` (nothing written) when the record is
    /// held by, or moves to, a month whose lane it does not hold.
    func writeRecord(
        _ bytes: [UInt8], named name: String, in month: Month, displayPath: String, reading: WriterRead, createsFile: Bool = false,
        held: WriteClaim
    ) throws(StoreError) -> LaneOutcome<Store.WriteOutcome> {
        let written = try Self.parse(bytes, displayPath: displayPath)
        let target = try recordWritten(written, named: name, in: month, displayPath: displayPath, createsFile: createsFile)
        let id = target?.id ?? (written.id.map { RecordID($0) } ?? RecordID.random()).text
        let sourceMonth = target?.month ?? month
        guard held.covers(.month(sourceMonth)) else { return .needs(.month(sourceMonth)) }
        try documentFiles.requireReadableFile(sourceMonth.documentPath)

        // Edit the held document in place: checked out of the state (and out of `source` while the editor
        // works), the document is the only reference to its storage, so the edit copies nothing (a copy
        // costs the whole op set and history, on every save). Nothing is kept unless everything is
        // valid and saved: on any failure the month goes back as it was saved.
        let edit = try replicas.withCheckedOut(sourceMonth, creatingEmpty: true, change: { (source: inout LoadedDocument) throws(StoreError) -> RecordEdit in
            let edit = try applyRecordEdit(written, id: id, to: &source, displayPath: displayPath, reading: reading)
            let newStart = RecordView.startTime(of: edit.object, in: source.document)
            if let newStart, edit.previousStart != .some(newStart), replicas.timeZone.month(ofMilliseconds: newStart) == nil {
                throw Self.reject(.startOutsideStoreYears(zone: replicas.timeZone.identifier), displayPath, written.locations)
            }
            // Where the record belongs now: where it is, unless this write moved its start out of that month.
            let destination = Self.filingMonth(previousStart: edit.previousStart, newStart: newStart, holder: sourceMonth, timeZone: replicas.timeZone)
            let changedAt = replicas.now()
            guard destination == sourceMonth else {
                // A move needs the month as it was before the edit (what the record leaves): it goes back
                // as last saved, and the move takes the edited document.
                return .moving(to: destination, object: edit.object, edited: source.document, conflictLines: edit.conflictLines, changedAt: changedAt)
            }
            source.invalidateView(changedRecord: id)
            let headsReadBefore = source.lastReadHeads
            let changed = try documentFiles.save(&source, to: sourceMonth.documentPath)
            var outcome = Store.WriteOutcome(id: id, month: sourceMonth, fileName: name, changed: changed, touchedMonths: changed ? [sourceMonth] : [])
            // A record's file name and the reports' names follow its start only: kept when the start is, and
            // when the save merged no other version from the disk (which may add, remove or rename records).
            outcome.keepsNames = target?.isListedUnderName == true
                && edit.previousStart == .some(RecordView.startTime(of: edit.object, in: source.document))
                && source.lastReadHeads == headsReadBefore
            return .saved(outcome, conflictLines: edit.conflictLines, changedAt: changedAt)
        }, keepsChange: { edit in
            if case .saved = edit { return true }
            return false
        }, rendersNoting: { edit in
            // What `checkInRecordEdit` notes: the view it looks the new name up in is rendered before, without `state`.
            guard case .saved(let outcome, _, let changedAt) = edit else { return nil }
            return outcome.changed ? [(RecordID(outcome.id), changedAt)] : []
        }, checkIn: { state, edit in
            guard case .saved(let outcome, let conflictLines, let changedAt) = edit else { return edit }
            return .saved(checkInRecordEdit(outcome, displayPath: displayPath, conflictLines: conflictLines, changedAt: changedAt, state: &state),
                          conflictLines: conflictLines, changedAt: changedAt)
        })
        switch edit {
        case .saved(let outcome, _, _):
            return .done(outcome)
        case .moving(let destination, let object, let edited, let conflictLines, let changedAt):
            // Nothing is written yet: the move runs again holding the destination's lane too.
            guard held.covers(.month(destination)) else { return .needs(.month(destination)) }
            let moved = try move(id, object: object, editedDocument: edited, from: sourceMonth, to: destination, oldName: displayPath, changedAt: changedAt)
            events.noteConflicts(conflictLines)
            return .done(moved)
        case nil:
            // `creatingEmpty` gives a document to every write: nothing reaches here.
            throw .notFound(displayPath)
        }
    }

    /// Applies the written fields to record `id` of `source` (created when the document lacks it), as the
    /// smallest change: the record's object, its start before the write (nil: a new record; `.some(nil)`:
    /// one without a start), and the `.minutafs/conflicts` lines for merged values the write replaced.
    private func applyRecordEdit(
        _ written: WrittenRecord, id: String, to source: inout LoadedDocument, displayPath: String, reading: WriterRead
    ) throws(StoreError) -> (object: ObjectID, previousStart: Int64??, conflictLines: [String]) {
        let currentView: [(key: String, value: JSONValue)]
        let object: ObjectID
        var previousStart: Int64?? = nil
        if let existing = RecordView.object(id, in: source.document) {
            object = existing
            previousStart = .some(RecordView.startTime(of: existing, in: source.document))
            if case .object(let view) = RecordView.json(id: id, record: existing, in: source.document) {
                currentView = view.filter { $0.key != "id" }
            } else {
                currentView = []
            }
        } else {
            do { object = try source.document.putObject(.map, forKey: id) } catch {
                throw Self.reject(.wrongType(field: "id", expected: "\(error)"), displayPath, written.locations)
            }
            currentView = []
        }
        // What the writer read: values it saved as read before a merge it could not see stay merged (SPEC 5b).
        let (fields, conflictLines) = documentFiles.reconcileWithMerges(written.members.filter { $0.key != "id" }, current: currentView, recordID: id,
                                                                        file: displayPath, reading: reading, now: replicas.now())
        let actor = replicas.actor
        var editor = ObjectEditor(document: source.document, object: object, rules: FieldRule.record)
        source.document = Document(actor: actor)
        do {
            try editor.applyInPlace(fields, currentView: currentView)
        } catch {
            throw Self.reject(error, displayPath, written.locations)
        }
        source.document = editor.takeDocument()
        source.document.setActor(actor)
        return (object, previousStart, conflictLines)
    }

    /// The bookkeeping of a saved record edit, in the hold of `state` that checks its month in: the
    /// conflicts it replaced, when the record changed, and the name it is shown under now.
    private func checkInRecordEdit(
        _ outcome: Store.WriteOutcome, displayPath: String, conflictLines: [String], changedAt: Int, state: inout MonthReplicas.State
    ) -> Store.WriteOutcome {
        var outcome = outcome
        events.noteConflicts(conflictLines)
        let key = RecordID(outcome.id)
        if outcome.changed { state.recentChanges.noteChange(of: key, at: changedAt) }
        // Only the name reported back to the mount; the save is done either way.
        let view = try? replicas.monthView(outcome.month, in: &state)
        let newName = view.flatMap { view in view.indexByID[key].map { view.files[$0].name } } ?? outcome.fileName
        if newName != outcome.fileName {
            outcome.keepsNames = false
            // Written under another name (`tmp.json`, or a new start): that name shows the record for a
            // while, so `mv tmp.json f` and an editor's re-read find it.
            let now = replicas.now()
            state.recentChanges.noteFormerName(displayPath, of: outcome.id, in: outcome.month, until: now + Store.gracePeriod, now: now)
        }
        outcome.fileName = newName
        return outcome
    }

    /// Moves a record to another month's document: written there first, then removed from the
    /// old one, so a crash leaves it in both but never in neither; the move is journaled first, and
    /// the next store opened finishes it (``RecordMoves/finishInterruptedMoves()``). Its images move too.
    /// Each document is checked out, changed and written with `state` released.
    private func move(
        _ id: String, object: ObjectID, editedDocument: Document, from sourceMonth: Month,
        to destination: Month, oldName: String, changedAt: Int
    ) throws(StoreError) -> Store.WriteOutcome {
        try documentFiles.requireReadableFile(destination.documentPath)
        let journaled = MoveJournal.Move(id: id, source: sourceMonth, destination: destination)
        // Without a journal entry (state folder full or unwritable) the move still happens, unrepaired.
        try? moves.journal?.begin(journaled)
        try copyRecord(id, object: object, from: editedDocument, to: destination, oldName: oldName)
        try moves.moveImages(RecordView.images(of: object, in: editedDocument), from: sourceMonth, to: destination)
        try removeMovedRecord(id, object: object, from: sourceMonth, to: destination, written: editedDocument)
        // Both saves are done: a failure to forget the move only makes the next store check it again.
        try? moves.journal?.finish(journaled)
        let newName = replicas.withState { state -> String in
            let now = replicas.now()
            state.recentChanges.noteChange(of: RecordID(id), at: changedAt)
            state.recentChanges.noteFormerName(oldName, of: id, in: destination, until: now + Store.gracePeriod, now: now)
            let view = try? replicas.monthView(destination, in: &state)
            return view.flatMap { view in view.indexByID[RecordID(id)].map { view.files[$0].name } } ?? oldName
        }
        return Store.WriteOutcome(id: id, month: destination, fileName: newName, changed: true, touchedMonths: [sourceMonth, destination])
    }

    /// The first half of a move: the record written into `destination`'s document.
    private func copyRecord(_ id: String, object: ObjectID, from editedDocument: Document, to destination: Month, oldName: String) throws(StoreError) {
        _ = try replicas.withCheckedOut(destination, creatingEmpty: true) { (target: inout LoadedDocument) throws(StoreError) in
            do {
                let copy = try target.document.putObject(.map, forKey: id)
                try DocumentCopy.copyMap(object, from: editedDocument, to: copy, in: &target.document)
            } catch {
                throw .rejected(file: oldName, line: nil, column: nil, reason: .wrongType(field: RecordField.startTime.key, expected: "a record that can be moved (\(error))"))
            }
            target.invalidateView(changedRecord: id)
            try documentFiles.save(&target, to: destination.documentPath)
        }
    }

    /// The second half of a move: the record deleted from `sourceMonth`'s document (as it was before
    /// the edit) and the move remembered. A new record written in a folder of another month was never
    /// in the old document: that one stays as it is (and is not created empty).
    private func removeMovedRecord(_ id: String, object: ObjectID, from sourceMonth: Month, to destination: Month, written: Document) throws(StoreError) {
        _ = try replicas.withCheckedOut(sourceMonth) { (old: inout LoadedDocument) throws(StoreError) in
            guard RecordView.object(id, in: old.document) != nil else { return }
            replicas.withState { state in
                moves.rememberMove(of: id, object: object, from: sourceMonth, document: old.document, to: destination, written: written, state: &state)
            }
            moves.rememberMovesOnDisk()
            // Fails only when the key is already gone from the old document: then there is nothing to delete.
            do { try old.document.delete(forKey: id) } catch {}
            old.invalidateView(changedRecord: id)
            try documentFiles.save(&old, to: sourceMonth.documentPath)
        }
    }
}
