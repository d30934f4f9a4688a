import AutomergeKit

/// Bringing in what sync tools deliver: conflict copies beside a document, and a document file
/// replaced by another device's version. Both are merged into what the store holds, never
/// replace it (SPEC section 5).
extension Store {
    public struct MergeReport: Sendable, Equatable, CustomStringConvertible {
        public enum Outcome: Sendable, Equatable {
            /// Merged; the copy was deleted after the primary was durably written.
            case merged(newChanges: Int)
            /// The copy could not be loaded and was moved to `.minutafs-quarantine/`.
            case quarantined(reason: String, movedTo: String)
            /// An image conflict copy identical to its original was deleted.
            case duplicateRemoved
            /// Left as it is: its document does not load now (SPEC 5a), or the copy could not be read.
            case waiting(reason: String)
        }

        public var copy: String
        public var primary: String
        public var outcome: Outcome

        public var description: String {
            switch outcome {
            case .merged(let count): "merged \(copy) into \(primary) (\(count) new change\(count == 1 ? "" : "s")), copy removed"
            case .quarantined(let reason, let movedTo): "could not load \(copy) (\(reason)); moved it to \(movedTo)"
            case .duplicateRemoved: "removed \(copy), identical to \(primary)"
            case .waiting(let reason): "left \(copy) as it is: \(reason)"
            }
        }
    }

    /// The folders (relative to the store) where documents and their conflict copies live.
    func documentFolders() throws(StoreError) -> [String] {
        [""] + (try years()).map { "records/" + $0 }
    }

    /// Every conflict copy in the backing folder: (copy, primary), relative to the store.
    public func conflictCopies() throws(StoreError) -> [(copy: String, primary: String)] {
        var result: [(copy: String, primary: String)] = []
        for folder in try documentFolders() {
            let prefix = folder.isEmpty ? "" : folder + "/"
            for name in try BackingFiles.listDirectory(folder.isEmpty ? path : absolute(folder)) {
                guard let match = ConflictCopyName.match(name) else { continue }
                if folder.isEmpty ? match.primaryName != "tags.automerge" : match.primaryName == "tags.automerge" { continue }
                guard BackingFiles.status(absolute(prefix + name))?.isRegularFile == true else { continue }
                result.append((prefix + name, prefix + match.primaryName))
            }
        }
        return result
    }

    /// Merges every conflict copy into its primary once, and removes image conflict copies identical
    /// to their originals. A copy is deleted only after the merged primary is durably on disk; one that
    /// cannot be loaded is quarantined, never deleted. The folders are listed in no write lane; each
    /// copy is merged in its primary's lane (saves of other months go on meanwhile), its primary checked
    /// out, merged and written with `state` released.
    public func mergeConflictCopies() throws(StoreError) -> [MergeReport] {
        // A folder that is no longer the store's own is not merged into (nor written) at all.
        try requireBackingFolder()
        // Store+ImageCopies.swift; a folder it cannot read must not hold up the documents' merge.
        let duplicates = (try? removeIdenticalImageCopies()) ?? []
        let copies = try conflictCopies()
        guard !copies.isEmpty else { return duplicates }
        var reports: [MergeReport] = []
        for (copy, primary) in copies {
            // One copy that cannot be merged now does not stop the others.
            do throws(StoreError) {
                let report = try withDocumentWrites(.document(primary)) { () throws(StoreError) -> MergeReport? in
                    // Listed with no lane held: another merge (`minutafs merge`) may have taken it since.
                    guard BackingFiles.status(absolute(copy))?.isRegularFile == true else { return nil }
                    return try mergeCopy(copy, into: primary)
                }
                if let report { reports.append(report) }
            } catch {
                reports.append(MergeReport(copy: copy, primary: primary, outcome: .waiting(reason: error.description)))
            }
        }
        return duplicates + reports
    }

    private func mergeCopy(_ copy: String, into primary: String) throws(StoreError) -> MergeReport {
        // Merging into a document that does not load would need writing over it: the copy waits.
        try documentFiles.requireReadableFile(primary)
        let bytes = try BackingFiles.read(absolute(copy))
        let incoming: Document
        do {
            incoming = try Document.load(bytes)
        } catch {
            let destination = try quarantine(copy)
            return MergeReport(copy: copy, primary: primary, outcome: .quarantined(reason: error.description, movedTo: destination))
        }
        let merged: CopyMerge
        if let month = Month(documentPath: primary) {
            let checkedIn = try withCheckedOut(month, creatingEmpty: true, change: { (loaded: inout LoadedDocument) throws(StoreError) -> CopyMerge in
                try mergeAndSave(incoming, from: copy, into: &loaded, primary: primary)
            }, keepsChange: { merged in
                if case .merged = merged { return true }
                return false
            })
            // `creatingEmpty` gives a document to every merge: nothing is nil here.
            guard let checkedIn else { throw .notFound(primary) }
            merged = checkedIn
        } else {
            merged = try withTagsDocument(change: { (tags: inout LoadedDocument) throws(StoreError) -> CopyMerge in
                try mergeAndSave(incoming, from: copy, into: &tags, primary: primary)
            }, keepsChange: { merged in
                if case .merged = merged { return true }
                return false
            })
        }
        switch merged {
        case .quarantined(let report):
            return report
        case .merged(let added):
            try BackingFiles.remove(absolute(copy))
            events.countMergedCopy("\(copy) into \(primary)")
            return MergeReport(copy: copy, primary: primary, outcome: .merged(newChanges: added))
        }
    }

    /// What merging one conflict copy did to its primary.
    private enum CopyMerge: Sendable {
        /// Merged and saved, with this many changes new to the primary.
        case merged(newChanges: Int)
        /// The copy's changes could not be applied: it went to quarantine and the primary stays as it was.
        case quarantined(MergeReport)
    }

    /// Merges `incoming` (the conflict copy at `copy`) into `loaded` and saves it as `primary`.
    ///
    /// A copy whose changes the primary could not be saved with (times at both ends of `Int64`: a
    /// document chunk cannot hold them, `AutomergeError.Kind.unsavableValue`) is not merged: the
    /// primary stays as it is, the copy stays where it is (it loads, and may be another device's only
    /// record of its changes), and the change is named in `.minutafs/errors` and the merge's report.
    private func mergeAndSave(_ incoming: Document, from copy: String, into loaded: inout LoadedDocument, primary: String) throws(StoreError) -> CopyMerge {
        let before = loaded.document.changeCount
        do { try documentFiles.merge(incoming, into: &loaded, relative: primary) } catch where error.kind == .unsavableValue {
            let refusal = StoreError.documentOperationFailed(file: copy, operation: "merging it into \(primary)", cause: error)
            events.noteOnce(refusal.description + "; the copy is left as it is, unmerged, and \(primary) is unchanged")
            throw refusal
        } catch {
            let destination = try quarantine(copy)
            return .quarantined(MergeReport(copy: copy, primary: primary, outcome: .quarantined(reason: error.description, movedTo: destination)))
        }
        try documentFiles.save(&loaded, to: primary)
        return .merged(newChanges: loaded.document.changeCount - before)
    }

    func quarantine(_ relative: String) throws(StoreError) -> String {
        guard backingFolderIsPresent else { throw .backingFolderGone(path) }
        let folder = ".minutafs-quarantine"
        try BackingFiles.makeDirectories(absolute(folder))
        let flattened = relative.split(separator: "/").joined(separator: "__")
        var destination = folder + "/" + flattened
        var attempt = 1
        while BackingFiles.status(absolute(destination)) != nil {
            attempt += 1
            destination = folder + "/" + flattened + "." + String(attempt)
        }
        try BackingFiles.move(absolute(relative), to: absolute(destination))
        return destination
    }

    /// Merges document files that changed on disk since this store last read or wrote them
    /// (another device's version delivered by a sync tool), writing back what the file lacks.
    /// A file that does not load is left as it is (SPEC 5a). Returns the documents (relative paths)
    /// whose content changed. Each changed document is merged in its own write lane, checked out,
    /// merged and written with `state` released, one at a time.
    public func synchronizeDocuments() throws(StoreError) -> [String] {
        // Another folder at the store's path (or none) holds nothing to merge into this store.
        try requireBackingFolder()
        // The holder index is built by the first month view or `indexRecordHolders` (not here: a
        // mount's first pass runs before it serves); once built, every pass keeps it current. Looked
        // at in no write lane: a save meanwhile only makes the next pass look again.
        let known = withState { $0.recordHolders.lastUpdate == nil ? nil : $0.recordHolders.identities }
        let scan = known.map { scanRecordHolders(known: $0) }
        var changed = try synchronizeMonths()
        // A record another document now holds too (or no longer does) is shown in one month only.
        let holders = withState { state -> [Month] in
            state.recordHolders.lastUpdate == nil ? [] : Array(refreshRecordHolders(in: &state, scan: scan))
        }
        for month in holders where !changed.contains(month.documentPath) { changed.append(month.documentPath) }
        if try synchronizeTags() { changed.append("tags.automerge") }
        return changed + synchronizeUnreadableFiles()
    }

    /// Merges the held month documents (decoded or parked) whose files changed, each in its own write
    /// lane (a save of another month goes on meanwhile); returns their paths.
    private func synchronizeMonths() throws(StoreError) -> [String] {
        let held = withState { state -> [(month: Month, identity: BackingFiles.Identity?)] in
            state.months.loaded.map { ($0.key, $0.value.identity) } + state.months.parked.map { ($0.key, $0.value.identity) }
        }
        var changed: [String] = []
        for (month, identity) in held.sorted(by: { $0.month < $1.month }) {
            let file = month.documentPath
            guard fileChanged(file, since: identity) else { continue }
            // Looked at again in the lane (`refresh`): the change seen may be this store's own save.
            let gained = try withDocumentWrites(.month(month)) { () throws(StoreError) -> Bool? in
                try withCheckedOut(month) { (loaded: inout LoadedDocument) throws(StoreError) -> Bool in
                    try refresh(&loaded, file: file)
                }
            }
            if gained == true { changed.append(file) }
        }
        return changed
    }

    /// Merges the held tags document if its file changed; whether it gained changes.
    private func synchronizeTags() throws(StoreError) -> Bool {
        guard withState({ $0.tags != nil }) else { return false }
        return try withDocumentWrites(.tags) { () throws(StoreError) -> Bool in
            try withTagsDocument { (tags: inout LoadedDocument) throws(StoreError) -> Bool in
                try refresh(&tags, file: "tags.automerge")
            }
        }
    }

    /// Whether a held document's file is there and is another version than the one the store last read
    /// or wrote (`held`), or, for a file known not to load, than the version that did not load.
    private func fileChanged(_ file: String, since held: BackingFiles.Identity?) -> Bool {
        guard let status = BackingFiles.status(absolute(file)) else { return false }
        return unreadable.hasChanged(file, to: status.identity, since: held)
    }

    /// Files that did not load and were never held: a readable version is loaded when next used.
    /// Returns those whose state changed.
    private func synchronizeUnreadableFiles() -> [String] {
        let files = unreadable.all
        let notHeld = withState { state in
            files.keys.filter { file in
                !(file == "tags.automerge" ? state.tags != nil : Month(documentPath: file).map { state.months[$0] != nil } ?? false)
            }
        }
        var changed: [String] = []
        for file in notHeld.sorted() {
            guard documentFiles.stillUnreadable(file) == nil else { continue }
            let readable = withDocumentWrites(.document(file)) { () -> Bool in
                if case .unreadable = documentFiles.readNotingUnreadable(file) { return false }
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
            merged = try documentFiles.mergeFromDisk(&loaded, file)
        } catch {
            if case .unloadableDocument = error { return false }
            throw error
        }
        guard let identity = merged.identity else { return false }
        if loaded.identity != identity {
            // We hold changes the file lacks: write them back.
            try documentFiles.replaceDocumentFile(&loaded, file, expected: identity)
            events.countSavedDocument()
        }
        return merged.gained
    }
}

extension Store {
    /// Notes, for `.minutafs/errors` and the log, that a pass over what sync tools delivered failed
    /// (a full disk on write-back, a folder that cannot be listed). Nothing is lost: the store keeps
    /// what it holds and the next pass tries again. The same failure twice in a row is noted once.
    public func noteSynchronizationFailure(_ error: StoreError) {
        events.noteOnce("could not bring in what the sync tool delivered: \(error); trying again on the next pass")
    }
}
