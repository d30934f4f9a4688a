import AutomergeKit

/// Brings in the conflict copies sync tools leave beside a document (`01 (Alice's conflicted copy
/// 2024-01-15).automerge`): each is merged into its primary, never replaces it, and is deleted only
/// once the merged primary is durably on disk; one that does not load is quarantined (SPEC section 5);
/// an empty one is left as it is until it has bytes.
/// Run by each synchronization pass (`StoreSynchronizer`) and by `minutafs merge`, through
/// ``Store/mergeConflictCopies()``.
struct ConflictCopyMerger {
    let store: Store

    /// Every conflict copy in the backing folder: (copy, primary), relative to the store.
    func conflictCopies() throws(StoreError) -> [(copy: String, primary: String)] {
        var result: [(copy: String, primary: String)] = []
        // The folders where documents and their conflict copies live: the top and each year's.
        for folder in [""] + (try store.years()).map({ "records/" + $0 }) {
            let prefix = folder.isEmpty ? "" : folder + "/"
            for name in try BackingFiles.listDirectory(folder.isEmpty ? store.path : store.replicas.absolute(folder)) {
                guard let match = ConflictCopyName.match(name) else { continue }
                if folder.isEmpty ? match.primaryName != DocumentName.tagsPath : match.primaryName == DocumentName.tagsPath { continue }
                guard BackingFiles.status(store.replicas.absolute(prefix + name))?.isRegularFile == true else { continue }
                result.append((prefix + name, prefix + match.primaryName))
            }
        }
        return result
    }

    /// Merges every conflict copy into its primary once, and removes image conflict copies identical
    /// to their originals (`ImageCopyCleaner`). A copy is deleted only after the merged primary is
    /// durably on disk; one that cannot be loaded is quarantined, never deleted. The folders are listed
    /// in no write lane; each copy is merged in its primary's lane (saves of other months go on
    /// meanwhile), its primary checked out, merged and written with `state` released.
    func mergeAll() throws(StoreError) -> [MergeReport] {
        // A folder that is no longer the store's own is not merged into (nor written) at all.
        try store.requireBackingFolder()
        // A folder the cleaner cannot read must not hold up the documents' merge.
        let duplicates = (try? ImageCopyCleaner(store: store).removeIdenticalCopies()) ?? []
        let copies = try conflictCopies()
        guard !copies.isEmpty else { return duplicates }
        var reports: [MergeReport] = []
        for (copy, primary) in copies {
            // One copy that cannot be merged now does not stop the others.
            do throws(StoreError) {
                let report = try store.withDocumentWrites(.document(primary)) { () throws(StoreError) -> MergeReport? in
                    // Listed with no lane held: another merge (`minutafs merge`) may have taken it since.
                    guard BackingFiles.status(store.replicas.absolute(copy))?.isRegularFile == true else { return nil }
                    return try merge(copy, into: primary)
                }
                if let report { reports.append(report) }
            } catch {
                reports.append(MergeReport(copy: copy, primary: primary, outcome: .waiting(reason: error.description)))
            }
        }
        return duplicates + reports
    }

    /// Merges one copy into its primary, in the primary's write lane.
    private func merge(_ copy: String, into primary: String) throws(StoreError) -> MergeReport {
        // Merging into a document that does not load would need writing over it: the copy waits.
        try store.documentFiles.requireReadableFile(primary)
        let bytes = try BackingFiles.read(store.replicas.absolute(copy))
        // Empty bytes load as an empty document, but an empty copy is one a sync tool is still
        // delivering (or a placeholder of one not downloaded): it waits, as an empty primary does.
        if bytes.isEmpty { return MergeReport(copy: copy, primary: primary, outcome: .waiting(reason: UnreadableReason.empty.description)) }
        let incoming: Document
        do {
            incoming = try Document.load(bytes)
        } catch {
            let destination = try store.backingFolder.quarantine(copy)
            return MergeReport(copy: copy, primary: primary, outcome: .quarantined(reason: error.description, movedTo: destination))
        }
        let merged: CopyMerge
        let keepsChange = { (merged: CopyMerge) -> Bool in
            if case .merged = merged { return true }
            return false
        }
        if let month = Month(documentPath: primary) {
            let checkedIn = try store.replicas.withCheckedOut(month, creatingEmpty: true, change: { (loaded: inout LoadedDocument) throws(StoreError) -> CopyMerge in
                try mergeAndSave(incoming, from: copy, into: &loaded, primary: primary)
            }, keepsChange: keepsChange)
            // `creatingEmpty` gives a document to every merge: nothing is nil here.
            guard let checkedIn else { throw .notFound(primary) }
            merged = checkedIn
        } else {
            merged = try store.replicas.withTagsDocument(change: { (tags: inout LoadedDocument) throws(StoreError) -> CopyMerge in
                try mergeAndSave(incoming, from: copy, into: &tags, primary: primary)
            }, keepsChange: keepsChange)
        }
        switch merged {
        case .quarantined(let report):
            return report
        case .merged(let added):
            try BackingFiles.remove(store.replicas.absolute(copy))
            store.events.countMergedCopy("\(copy) into \(primary)")
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
        do { try store.documentFiles.merge(incoming, into: &loaded, relative: primary) } catch where error.kind == .unsavableValue {
            let refusal = StoreError.documentOperationFailed(file: copy, operation: "merging it into \(primary)", cause: error)
            store.events.noteOnce(refusal.description + "; the copy is left as it is, unmerged, and \(primary) is unchanged")
            throw refusal
        } catch {
            let destination = try store.backingFolder.quarantine(copy)
            return .quarantined(MergeReport(copy: copy, primary: primary, outcome: .quarantined(reason: error.description, movedTo: destination)))
        }
        try store.documentFiles.save(&loaded, to: primary)
        return .merged(newChanges: loaded.document.changeCount - before)
    }
}
