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

    /// Merges every conflict copy into its primary once. A copy is deleted only after the merged
    /// primary is durably on disk; one that cannot be loaded is quarantined, never deleted.
    public func mergeConflictCopies() throws(StoreError) -> [MergeReport] {
        // A folder that is no longer the store's own is not merged into (nor written) at all.
        try requireBackingFolder()
        // Store+ImageCopies.swift; a folder it cannot read must not hold up the documents' merge.
        let duplicates = (try? removeIdenticalImageCopies()) ?? []
        let copies = try conflictCopies()
        guard !copies.isEmpty else { return duplicates }
        return try state.withLock { (state: inout State) throws(StoreError) -> [MergeReport] in
            var reports: [MergeReport] = []
            for (copy, primary) in copies {
                // One copy that cannot be merged now does not stop the others.
                do throws(StoreError) {
                    reports.append(try mergeCopy(copy, into: primary, state: &state))
                } catch {
                    reports.append(MergeReport(copy: copy, primary: primary, outcome: .waiting(reason: error.description)))
                }
            }
            return duplicates + reports
        }
    }

    private func mergeCopy(_ copy: String, into primary: String, state: inout State) throws(StoreError) -> MergeReport {
        // Merging into a document that does not load would need writing over it: the copy waits.
        try requireReadableFile(primary, state: &state)
        let bytes = try BackingFiles.read(absolute(copy))
        let incoming: Document
        do {
            incoming = try Document.load(bytes)
        } catch {
            let destination = try quarantine(copy)
            return MergeReport(copy: copy, primary: primary, outcome: .quarantined(reason: error.description, movedTo: destination))
        }
        var loaded: LoadedDocument
        let month = Month(documentPath: primary)
        if let month {
            loaded = try loadMonth(month, in: &state) ?? LoadedDocument(document: Document(actor: actor), identity: nil, view: nil, savedChangeCount: -1)
        } else {
            loaded = try loadTags(in: &state)
        }
        let before = loaded.document.changeCount
        do { try merge(incoming, into: &loaded, relative: primary, state: &state) } catch {
            let destination = try quarantine(copy)
            return MergeReport(copy: copy, primary: primary, outcome: .quarantined(reason: error.description, movedTo: destination))
        }
        loaded.view = nil
        try save(&loaded, to: primary, state: &state)
        if let month { state.months[month] = loaded } else { state.tags = loaded; state.tagsView = nil }
        try BackingFiles.remove(absolute(copy))
        let added = loaded.document.changeCount - before
        state.mergedCopyCount += 1
        state.lastMerge = "\(copy) into \(primary)"
        return MergeReport(copy: copy, primary: primary, outcome: .merged(newChanges: added))
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
    /// whose content changed.
    public func synchronizeDocuments() throws(StoreError) -> [String] {
        // Another folder at the store's path (or none) holds nothing to merge into this store.
        try requireBackingFolder()
        // The holder index is built by the first month view or `indexRecordHolders` (not here: a
        // mount's first pass runs before it serves); once built, every pass keeps it current.
        let indexed = state.withLock { $0.recordHolders.lastUpdate != nil }
        let scan = indexed ? scanRecordHolders() : nil
        return try state.withLock { (state: inout State) throws(StoreError) -> [String] in
            var changed: [String] = []
            // A parked document whose file changed is loaded again (without parking others) to merge.
            for (month, parked) in state.months.parked where BackingFiles.status(absolute(month.documentPath))?.identity != parked.identity {
                _ = try loadMonth(month, in: &state, parkingOthers: false)
            }
            for month in Array(state.months.loaded.keys) {
                guard var loaded = state.months[month] else { continue }
                if try refresh(&loaded, file: month.documentPath, state: &state) {
                    loaded.view = nil
                    changed.append(month.documentPath)
                }
                state.months[month] = loaded
            }
            // A record another document now holds too (or no longer does) is shown in one month only.
            if state.recordHolders.lastUpdate != nil {
                for month in refreshRecordHolders(in: &state, scan: scan) where !changed.contains(month.documentPath) {
                    changed.append(month.documentPath)
                }
            }
            if var tags = state.tags {
                if try refresh(&tags, file: "tags.automerge", state: &state) {
                    changed.append("tags.automerge")
                    state.tagsView = nil
                }
                state.tags = tags
            }
            // Files that did not load and were never held: a readable version is loaded when next used.
            for (file, known) in state.unreadable {
                let isHeld = file == "tags.automerge" ? state.tags != nil : Month(documentPath: file).map { state.months[$0] != nil } ?? false
                guard !isHeld, BackingFiles.status(absolute(file))?.identity != known.identity else { continue }
                switch readDocumentFile(file) {
                case .absent, .loaded:
                    clearUnreadable(file, state: &state)
                    changed.append(file)
                case .unreadable(let reason, let identity):
                    markUnreadable(file, reason: reason, identity: identity, state: &state)
                }
            }
            return changed
        }
    }

    /// Returns whether the held document gained changes from the file. A file that does not load is
    /// noted and left alone; what the store holds beyond it goes to a conflict copy.
    private func refresh(_ loaded: inout LoadedDocument, file: String, state: inout State) throws(StoreError) -> Bool {
        guard let status = BackingFiles.status(absolute(file)) else { return false }
        if let known = state.unreadable[file] {
            guard status.identity != known.identity else { return false }
        } else {
            guard status.identity != loaded.identity else { return false }
        }
        let merged: (identity: BackingFiles.Identity?, gained: Bool)
        do {
            merged = try mergeFromDisk(&loaded, file, state: &state)
        } catch {
            if case .unloadableDocument = error { return false }
            throw error
        }
        guard let identity = merged.identity else { return false }
        if loaded.identity != identity {
            // We hold changes the file lacks: write them back.
            try replaceDocumentFile(&loaded, file, expected: identity, state: &state)
            state.savedDocumentCount += 1
        }
        return merged.gained
    }
}

extension Store {
    /// Notes, for `.minutafs/errors` and the log, that a pass over what sync tools delivered failed
    /// (a full disk on write-back, a folder that cannot be listed). Nothing is lost: the store keeps
    /// what it holds and the next pass tries again. The same failure twice in a row is noted once.
    public func noteSynchronizationFailure(_ error: StoreError) {
        state.withLock { state in
            let line = "could not bring in what the sync tool delivered: \(error); trying again on the next pass"
            guard state.rejections.last != line else { return }
            noteEvent(line, state: &state)
        }
    }
}
