import AutomergeKit

/// Brings in document files another device's version replaced (delivered by a sync tool): each held
/// document whose file changed is merged with it in its own write lane, what the file lacks is written
/// back, and files that did not load are looked at again (SPEC 5a). Run by each synchronization pass
/// (`StoreSynchronizer`) through ``Store/synchronizeDocuments()``; conflict copies are
/// `ConflictCopyMerger`'s.
struct DocumentSynchronizer {
    let store: Store

    /// Merges document files that changed on disk since this store last read or wrote them
    /// (another device's version delivered by a sync tool), writing back what the file lacks.
    /// A file that does not load is left as it is (SPEC 5a). Returns the documents (relative paths)
    /// whose content changed. Each changed document is merged in its own write lane, checked out,
    /// merged and written with `state` released, one at a time.
    func synchronizeDocuments() throws(StoreError) -> [String] {
        // Another folder at the store's path (or none) holds nothing to merge into this store.
        try store.requireBackingFolder()
        // The holder index is built by the first month view or `indexRecordHolders` (not here: a
        // mount's first pass runs before it serves); once built, every pass keeps it current. Looked
        // at in no write lane: a save meanwhile only makes the next pass look again.
        let scan = store.replicas.scanRecordHoldersIfBuilt()
        var changed = try synchronizeMonths()
        // A record another document now holds too (or no longer does) is shown in one month only.
        let holders = store.replicas.refreshBuiltRecordHolders(scan: scan)
        for month in holders where !changed.contains(month.documentPath) { changed.append(month.documentPath) }
        if try synchronizeTags() { changed.append(DocumentName.tagsPath) }
        return changed + synchronizeUnreadableFiles()
    }

    /// Merges the held month documents (decoded or parked) whose files changed, each in its own write
    /// lane (a save of another month goes on meanwhile); returns their paths.
    private func synchronizeMonths() throws(StoreError) -> [String] {
        let held = store.replicas.heldMonthFiles()
        var changed: [String] = []
        for (month, identity) in held.sorted(by: { $0.month < $1.month }) {
            let file = month.documentPath
            guard fileChanged(file, since: identity) else { continue }
            // Looked at again in the lane (`refresh`): the change seen may be this store's own save.
            let gained = try store.withDocumentWrites(.month(month)) { () throws(StoreError) -> Bool? in
                try store.replicas.withCheckedOut(month) { (loaded: inout LoadedDocument) throws(StoreError) -> Bool in
                    try refresh(&loaded, file: file)
                }
            }
            if gained == true { changed.append(file) }
        }
        return changed
    }

    /// Merges the held tags document if its file changed; whether it gained changes.
    private func synchronizeTags() throws(StoreError) -> Bool {
        guard store.replicas.holds(DocumentName.tagsPath) else { return false }
        return try store.withDocumentWrites(.tags) { () throws(StoreError) -> Bool in
            try store.replicas.withTagsDocument { (tags: inout LoadedDocument) throws(StoreError) -> Bool in
                try refresh(&tags, file: DocumentName.tagsPath)
            }
        }
    }

    /// Whether a held document's file is there and is another version than the one the store last read
    /// or wrote (`held`), or, for a file known not to load, than the version that did not load.
    private func fileChanged(_ file: String, since held: BackingFiles.Identity?) -> Bool {
        guard let status = BackingFiles.status(store.replicas.absolute(file)) else { return false }
        return store.unreadable.hasChanged(file, to: status.identity, since: held)
    }

    /// Files that did not load and were never held: a readable version is loaded when next used.
    /// Returns those whose state changed.
    private func synchronizeUnreadableFiles() -> [String] {
        let files = store.unreadable.all
        let notHeld = files.keys.filter { !store.replicas.holds($0) }
        var changed: [String] = []
        for file in notHeld.sorted() {
            guard store.documentFiles.stillUnreadable(file) == nil else { continue }
            let readable = store.withDocumentWrites(.document(file)) { () -> Bool in
                if case .unreadable = store.documentFiles.readNotingUnreadable(file) { return false }
                return true
            }
            if readable { changed.append(file) }
        }
        return changed
    }

    /// Returns whether the held document gained changes from the file. A file that does not load is
    /// noted and left alone; what the store holds beyond it goes to a conflict copy.
    private func refresh(_ loaded: inout LoadedDocument, file: String) throws(StoreError) -> Bool {
        guard fileChanged(file, since: loaded.identity) else { return false }
        let merged: (identity: BackingFiles.Identity?, gained: Bool)
        do {
            merged = try store.documentFiles.mergeFromDisk(&loaded, file)
        } catch {
            if case .unloadableDocument = error { return false }
            throw error
        }
        guard let identity = merged.identity else { return false }
        if loaded.identity != identity {
            // We hold changes the file lacks: write them back.
            try store.documentFiles.replaceDocumentFile(&loaded, file, expected: identity)
            store.events.countSavedDocument()
        }
        return merged.gained
    }

    /// Notes, for `.minutafs/errors` and the log, that a pass over what sync tools delivered failed
    /// (a full disk on write-back, a folder that cannot be listed). Nothing is lost: the store keeps
    /// what it holds and the next pass tries again. The same failure twice in a row is noted once.
    func noteFailure(_ error: StoreError) {
        store.events.noteOnce("could not bring in what the sync tool delivered: \(error); trying again on the next pass")
    }
}
