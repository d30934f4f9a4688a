import AutomergeKit

/// Edits another device made to a record after this store moved it to another month (SPEC section 4,
/// issue 17): Automerge keeps them on the record's object in the old month's document, where the
/// record's key is deleted, so they would show nowhere. After each synchronization, the fields of such
/// an object that changed since the move are carried to the record's new place; a field this store
/// changed too keeps this store's value, and the other device's is listed in `.minutafs/conflicts`.
///
/// With a state folder (a mount has one) moves are remembered across mounts (`MovedRecordMemory`), so an
/// edit that arrives after a remount is carried too; without one, for the life of the store object.
extension Store {
    /// A record this store moved: where its old object is, and its fields as they were there.
    struct MovedAway: Sendable {
        var source: Month
        var object: ObjectID
        var destination: Month
        /// The record's fields in the old document as of the move (or the last carrying), without `id`.
        var fieldsAtMove: [(key: String, value: JSONValue)]
        /// Fields as this store wrote them in the new place at the move.
        var fieldsWritten: [(key: String, value: JSONValue)]
        /// When the move was made (seconds since the epoch): the oldest are forgotten first.
        var movedAt: Int
    }

    /// Remembers a move (called by `move`, under the lock).
    func rememberMove(of id: String, object: ObjectID, from source: Month, document: Document, to destination: Month,
                      written: Document, state: inout State) {
        state.movedAway[RecordID(id)] = MovedAway(
            source: source, object: object, destination: destination,
            fieldsAtMove: Self.fields(of: id, object: object, in: document),
            fieldsWritten: Self.fields(of: id, object: object, in: written), movedAt: Self.now())
        rememberMovesOnDisk(state: &state)
    }

    /// Writes the moves to `MovedRecordMemory` (keeping its newest ones). A failure is logged: the edits
    /// it would carry stay in the old month's document, and this mount still carries them.
    func rememberMovesOnDisk(state: inout State) {
        guard let movedRecordMemory else { return }
        do throws(StoreError) {
            state.movedAway = try movedRecordMemory.save(state.movedAway)
        } catch {
            log("cannot remember moved records in \(movedRecordMemory.path): \(error)")
        }
    }

    static func fields(of id: String, object: ObjectID, in document: Document) -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = RecordView.json(id: id, record: object, in: document) else { return [] }
        return members.filter { $0.key != "id" }
    }

    /// Carries field changes merged into the old objects of moved records to their new place; returns
    /// the month folders (relative) whose records changed.
    public func carryEditsToMovedRecords() throws(StoreError) -> [String] {
        try state.withLock { (state: inout State) throws(StoreError) -> [String] in
            var changed: [String] = []
            for (key, moved) in state.movedAway {
                guard let old = state.months[moved.source]?.document else { continue }  // not merged into since
                let now = Self.fields(of: key.text, object: moved.object, in: old)
                let theirs = now.filter { field in
                    !moved.fieldsAtMove.contains { $0.key == field.key && $0.value == field.value }
                }
                guard !theirs.isEmpty, var target = try loadMonth(moved.destination, in: &state),
                      let id = key.key(among: target.document.keys(of: .root)),
                      let object = RecordView.object(id, in: target.document) else { continue }
                let current = Self.fields(of: id, object: object, in: target.document)
                var desired = current
                var conflicts: [String] = []
                for field in theirs {
                    let written = moved.fieldsWritten.first { $0.key == field.key }?.value
                    let atMove = moved.fieldsAtMove.first { $0.key == field.key }?.value
                    if written != atMove, let written, written != field.value {
                        // Both changed it: this store's value stays, theirs is listed.
                        conflicts.append("\(moved.destination.folderPath)/\(id): \(field.key): shows \(Self.oneLine(written)); "
                            + "also written concurrently (on another device, before the record moved from \(moved.source.folderPath)): \(Self.oneLine(field.value))\n")
                    } else if let index = desired.firstIndex(where: { $0.key == field.key }) {
                        desired[index].value = field.value
                    } else {
                        desired.append(field)
                    }
                }
                var editor = ObjectEditor(document: target.document, object: object, rules: FieldRule.record)
                do throws(RecordInputError) { try editor.apply(desired, currentView: current) } catch {
                    recordRejection(.rejected(file: moved.destination.folderPath + "/" + id, line: nil, column: nil, reason: error), state: &state)
                    continue
                }
                target.document = editor.document
                target.invalidateView(changedRecord: id)
                try save(&target, to: moved.destination.documentPath, state: &state)
                state.months[moved.destination] = target
                state.carriedConflicts += conflicts
                state.movedAway[key]?.fieldsAtMove = now
                state.recordChangeTimes[key] = Self.now()
                changed.append(moved.destination.folderPath)
            }
            if !changed.isEmpty { rememberMovesOnDisk(state: &state) }
            return changed
        }
    }

    static func oneLine(_ value: JSONValue) -> String {
        String(decoding: JSONWriter.pretty(value).dropLast(), as: UTF8.self)
            .split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }.joined(separator: " ")
    }
}
