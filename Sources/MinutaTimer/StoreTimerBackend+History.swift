import MinutaStore

/// The history side of a timer action (SPEC 10 `undo`): the heads of each document the action wrote,
/// before and after it, and, for `undo`, the records and tags those changes set, read from the
/// documents' history as `minutafs restore` reads a snapshot.
extension StoreTimerBackend {
    /// Starts an action: the documents it writes are noted from here on.
    public func beginAction() { headsLog.begin() }

    /// The documents the action changed, with their heads before its first write and now.
    public func actionHeads() -> [DocumentHeads] {
        headsLog.before.compactMap { entry in
            guard let after = try? store.headsText(of: entry.month), after != entry.heads else { return nil }
            return DocumentHeads(month: entry.month, before: entry.heads, after: after)
        }
    }

    func noteBeforeWriting(_ month: Month?) throws(StoreError) {
        try headsLog.noteBeforeWriting(month) { () throws(StoreError) -> [String] in try store.headsText(of: month) }
    }

    /// The records (or tags) of a document that differ between its heads before and after an action,
    /// each with its value now.
    public func changedObjects(in document: DocumentHeads) throws(TimerError) -> [HistoryChange] {
        let month = document.monthValue
        do { return try store.changedObjects(of: month, from: document.before, to: document.after) } catch {
            throw .storeFailed(file: DocumentName(month).relativePath, reason: error.description)
        }
    }
}
