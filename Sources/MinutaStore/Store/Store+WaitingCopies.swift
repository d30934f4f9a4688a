import AutomergeKit

/// Conflict copies read without being merged into the store (SPEC section 9: "without a mount,
/// `report` reads documents merged with their waiting conflict copies, as the mount shows them").
///
/// A store opened with `mergesWaitingCopiesInMemory` (the read-only commands: `report`, `log`, `now`)
/// merges every conflict copy beside a document into the document it holds when it first reads it,
/// in memory only: nothing is written, renamed or deleted, no view of such a month is taken from or
/// put into the view cache (it would not be the file's), and a copy that does not load is left as
/// it is and named. `minutafs merge` or a mount merges the copies into the store.
extension Store {
    /// What the read-only merging of conflict copies found: the copies merged in memory and those
    /// that could not be read (relative paths, in order).
    public struct WaitingCopies: Sendable, Equatable {
        public var merged: [String] = []
        public var unreadable: [(copy: String, reason: String)] = []

        public static func == (left: WaitingCopies, right: WaitingCopies) -> Bool {
            left.merged == right.merged && left.unreadable.map(\.copy) == right.unreadable.map(\.copy)
                && left.unreadable.map(\.reason) == right.unreadable.map(\.reason)
        }
    }

    /// The conflict copies merged in memory so far (and those that could not be read).
    public var waitingCopies: WaitingCopies {
        waitingCopyState.withLock { state in
            WaitingCopies(merged: state.merged.sorted(), unreadable: state.unreadable.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    /// The conflict copies beside the document `relative` (`tags.automerge`, `records/2024/05.automerge`),
    /// relative to the store.
    func waitingCopyPaths(of relative: String) -> [String] {
        let parent = BackingFiles.parentPath(relative)
        let folder = parent == "." ? "" : parent
        let names = waitingCopyNames(inFolder: folder)[BackingFiles.lastComponent(relative)] ?? []
        return names.map { folder.isEmpty ? $0 : folder + "/" + $0 }
    }

    /// The conflict copies in `folder` (relative, "" for the store's own), by the name of their
    /// primary; each folder is listed once.
    func waitingCopyNames(inFolder folder: String) -> [String: [String]] {
        if let known = waitingCopyState.withLock({ $0.folders[folder] }) { return known }
        var found: [String: [String]] = [:]
        let entries = (try? BackingFiles.listDirectory(folder.isEmpty ? path : absolute(folder))) ?? []
        for name in entries {
            guard let match = ConflictCopyName.match(name) else { continue }
            // Copies of the tags beside the tags, of months in year folders only (as `ConflictCopyMerger.conflictCopies()`).
            guard folder.isEmpty == (match.primaryName == "tags.automerge") else { continue }
            guard BackingFiles.status(absolute(folder.isEmpty ? name : folder + "/" + name))?.isRegularFile == true else { continue }
            found[match.primaryName, default: []].append(name)
        }
        waitingCopyState.withLock { $0.folders[folder] = found }
        return found
    }

    /// Whether reads of this store merge conflict copies and `relative` has any beside it.
    func hasWaitingCopies(_ relative: String) -> Bool {
        mergesWaitingCopiesInMemory && !waitingCopyPaths(of: relative).isEmpty
    }

    /// `loaded` (the document just read from `relative`, or nil when it has no file) with every
    /// conflict copy beside it merged in memory, when this store merges them; nil when there is
    /// neither a document nor a copy that loads.
    func mergingWaitingCopies(into loaded: LoadedDocument?, relative: String) -> LoadedDocument? {
        guard mergesWaitingCopiesInMemory else { return loaded }
        var result = loaded
        for copy in waitingCopyPaths(of: relative) {
            let incoming: Document
            do {
                incoming = try Document.load(try BackingFiles.read(absolute(copy)))
                if let reason = incoming.unappliedChangesReason { throw StoreError.unloadableDocument(file: copy, reason: reason) }
            } catch {
                waitingCopyState.withLock { $0.unreadable[copy] = "\(error)" }
                continue
            }
            var merging = result ?? LoadedDocument(document: Document(actor: actor), identity: nil, view: nil, savedChangeCount: -1)
            do {
                try merging.document.merge(incoming)
            } catch {
                waitingCopyState.withLock { $0.unreadable[copy] = error.description }
                continue
            }
            merging.noteMerged()
            result = merging
            waitingCopyState.withLock { _ = $0.merged.insert(copy) }
        }
        return result
    }

    /// The months of a year folder whose document is absent but which have a conflict copy, when
    /// this store merges them (a mount would show them once merged).
    func monthsWithOnlyWaitingCopies(inYear yearName: String) -> [Month] {
        guard mergesWaitingCopiesInMemory else { return [] }
        return waitingCopyNames(inFolder: "records/" + yearName).keys.compactMap { Month(yearName: yearName, documentName: $0) }
    }
}
