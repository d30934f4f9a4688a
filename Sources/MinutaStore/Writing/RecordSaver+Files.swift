import AutomergeKit

/// What else a record file can have done to it: renamed onto itself, deleted, an image attached or
/// detached.
extension RecordSaver {
    /// `mv` of one record file onto another: allowed only when both names show the same record (a
    /// temporary name a save just wrote), and then nothing is left to do but forget the temporary name.
    /// Renaming a record's file to another record's is refused.
    func renameRecordFile(named name: String, in month: Month, to newName: String, in newMonth: Month) throws(StoreError) {
        try replicas.withPrepared(month, newMonth) { (state: inout MonthReplicas.State) throws(StoreError) in
            guard let source = try replicas.recordFileLocked(named: name, in: month, state: &state) else {
                throw .notFound(month.folderPath + "/" + name)
            }
            guard let destination = try replicas.recordFileLocked(named: newName, in: newMonth, state: &state),
                  RecordID(destination.record.id) == RecordID(source.record.id) else {
                // Record names come from their startTime; renaming one would change nothing.
                throw .system(file: month.folderPath + "/" + name, operation: "rename", errno: .notPermitted) // EPERM
            }
            state.recentChanges.forgetFormerName(month.folderPath + "/" + name)
        }
    }

    /// Deletes the record a file shows, and its image files, holding the lanes `held`: `.needs` when the
    /// name finds a record another month holds.
    func deleteRecordFile(named name: String, in month: Month, held: WriteClaim) throws(StoreError) -> LaneOutcome<Void> {
        let shown = try replicas.withPrepared(month) { (state: inout MonthReplicas.State) throws(StoreError) -> (record: RecordFile, month: Month)? in
            try replicas.recordFileLocked(named: name, in: month, state: &state)
        }
        guard let (file, recordMonth) = shown else {
            throw .notFound(month.folderPath + "/" + name)
        }
        guard held.covers(.month(recordMonth)) else { return .needs(.month(recordMonth)) }
        try documentFiles.requireReadableFile(recordMonth.documentPath)
        let deleted = try replicas.withCheckedOut(recordMonth) { (loaded: inout LoadedDocument) throws(StoreError) -> [String] in
            let images = RecordView.object(file.id, in: loaded.document).map { RecordView.images(of: $0, in: loaded.document) } ?? []
            do { try loaded.document.delete(forKey: file.id) } catch { throw .notFound(month.folderPath + "/" + name) }
            loaded.invalidateView(changedRecord: file.id)
            try documentFiles.save(&loaded, to: recordMonth.documentPath)
            return images
        }
        guard let images = deleted else { throw .notFound(month.folderPath + "/" + name) }
        for image in images where FieldRule.isValidFileName(image) {
            let imagePath = replicas.absolute(recordMonth.folderPath + "/" + image)
            if BackingFiles.status(imagePath)?.isRegularFile == true { try BackingFiles.remove(imagePath) }
        }
        return .done(())
    }

    /// Adds an image's name to (or removes it from) the `images` of the record it is named after, saved
    /// with `state` released.
    func updateImageList(_ name: String, in month: Month, attach: Bool) throws(StoreError) {
        guard let owner = PassThroughFile.imageOwner(name),
              let file = try replicas.recordFiles(in: month).first(where: { RecordID($0.id) == RecordID(owner) }) else { return }
        _ = try replicas.withCheckedOut(month, change: { (loaded: inout LoadedDocument) throws(StoreError) -> Bool in
            try updateImageList(name, of: file.id, in: &loaded, month: month, attach: attach)
        }, checkIn: { state, changed in
            if changed { state.recentChanges.noteChange(of: RecordID(file.id), at: replicas.now()) }
            return changed
        })
    }

    /// Whether the list changed (and was saved).
    private func updateImageList(_ name: String, of id: String, in loaded: inout LoadedDocument, month: Month, attach: Bool) throws(StoreError) -> Bool {
        guard let record = RecordView.object(id, in: loaded.document) else { return false }
        var names = RecordView.images(of: record, in: loaded.document)
        if attach {
            guard !names.contains(name) else { return false }
            names.append(name)
        } else {
            guard names.contains(name) else { return false }
            names.removeAll { $0 == name }
        }
        var editor = ObjectEditor(document: loaded.document, object: record, rules: FieldRule.record)
        let current: [(key: String, value: JSONValue)]
        if case .object(let members) = RecordView.json(id: id, record: record, in: loaded.document) { current = members.filter { $0.key != "id" } } else { current = [] }
        let updated = current.map { member in member.key == "images" ? (member.key, JSONValue.array(names.map { .string($0) })) : member }
        do { try editor.apply(updated, currentView: current) } catch {
            throw .rejected(file: month.folderPath + "/" + name, line: nil, column: nil, reason: error)
        }
        loaded.document = editor.document
        loaded.invalidateView(changedRecord: id)
        try documentFiles.save(&loaded, to: month.documentPath)
        return true
    }
}
