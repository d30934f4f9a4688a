/// A month document deleted from the backing folder while the store holds it (a user's `rm`, a sync
/// tool's delete from another device): its records stay shown from memory, read-only, and the store
/// says so in `.minutafs/status` and `.minutafs/errors`. A save of one of its records writes the whole
/// month back, and that is said too; so is the file coming back by itself.
extension Store {
    /// Month documents held but gone from the folder, in order.
    public var deletedDocuments: [Month] {
        deletedMonths.withLock { $0.sorted() }
    }

    /// Whether `month`'s document was deleted from the folder while held (its records are read-only).
    public func isDeletedDocument(_ month: Month) -> Bool {
        deletedMonths.withLock { $0.contains(month) }
    }

    /// Looks for held month documents whose file disappeared or came back; returns the months whose
    /// state changed (their record files change from writable to read-only or back).
    public func noticeDeletedDocuments() -> [Month] {
        let held = withState { state in
            var held: [(month: Month, records: Int)] = []
            for (month, loaded) in state.months.loaded where loaded.identity != nil {
                held.append((month, loaded.view?.files.count ?? loaded.document.keys(of: .root).count))
            }
            for (month, parked) in state.months.parked where parked.identity != nil {
                held.append((month, parked.view?.files.count ?? 0))
            }
            return held
        }
        // Looked at with `state` released.
        do {
            var changed: [Month] = []
            for (month, records) in held {
                // Anything there (a link, a folder, a file that does not load) is not a deletion: that
                // is an unreadable document (SPEC 5a, 5b), refused with EROFS.
                let exists = BackingFiles.status(absolute(month.documentPath)) != nil
                if !exists, deletedMonths.withLock({ $0.insert(month).inserted }) {
                    noteDocumentEvent("\(month.documentPath) was deleted from the folder while mounted; its \(records) record(s) are still shown, read-only; saving an edit to one of them writes the month back")
                    changed.append(month)
                } else if exists, deletedMonths.withLock({ $0.remove(month) }) != nil {
                    noteDocumentEvent("\(month.documentPath) is back in the folder; its records are writable again")
                    changed.append(month)
                }
            }
            return changed
        }
    }

    /// After a save of `file` touching `months`: a deleted document among them is back on disk.
    func noteWrittenBack(_ months: [Month], by file: String) {
        for month in months where isDeletedDocument(month) {
            guard BackingFiles.status(absolute(month.documentPath))?.isRegularFile == true else { continue }
            deletedMonths.withLock { _ = $0.remove(month) }
            noteDocumentEvent("\(month.documentPath) was written back to the folder by a save of \(file); its records are writable again")
        }
    }

    /// A line for `.minutafs/errors` that is not a refused write (not counted as one).
    private func noteDocumentEvent(_ line: String) {
        events.note(line, logged: false)
    }
}
