import AutomergeKit
import Synchronization

/// Conflict copies read without being merged into the store (SPEC section 9: "without a mount,
/// `report` reads documents merged with their waiting conflict copies, as the mount shows them").
///
/// For a store opened with `mergesWaitingCopiesInMemory` (the read-only commands: `report`, `log`,
/// `now`) it merges every conflict copy beside a document into the document the store holds when it
/// first reads it, in memory only: nothing is written, renamed or deleted, and a copy that does not
/// load is left as it is and named. For any other store it does nothing. It lists each folder once and
/// keeps what it found behind a lock of its own, taken alone.
final class WaitingCopyReader: Sendable {
    /// Whether this store's reads merge the copies (`Store.mergesWaitingCopiesInMemory`).
    let isMerging: Bool
    /// The backing folder, absolute.
    private let path: String
    /// The actor of the document made for a copy whose primary has no file.
    private let actor: ActorID
    private let state = Mutex(WaitingCopyState())

    init(path: String, actor: ActorID, isMerging: Bool) {
        self.path = path
        self.actor = actor
        self.isMerging = isMerging
    }

    /// The copies merged so far (relative paths, in order) and those that could not be read, with why.
    var found: (merged: [String], unreadable: [(copy: String, reason: String)]) {
        state.withLock { state in
            (state.merged.sorted(), state.unreadable.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    /// The conflict copies beside the document `relative` (`tags.automerge`, `records/2024/05.automerge`),
    /// relative to the store.
    func copyPaths(of relative: String) -> [String] {
        let parent = BackingFiles.parentPath(relative)
        let folder = parent == "." ? "" : parent
        let names = copyNames(inFolder: folder)[BackingFiles.lastComponent(relative)] ?? []
        return names.map { folder.isEmpty ? $0 : folder + "/" + $0 }
    }

    /// The conflict copies in `folder` (relative, "" for the store's own), by the name of their
    /// primary; each folder is listed once.
    func copyNames(inFolder folder: String) -> [String: [String]] {
        if let known = state.withLock({ $0.folders[folder] }) { return known }
        var found: [String: [String]] = [:]
        let entries = (try? BackingFiles.listDirectory(folder.isEmpty ? path : path + "/" + folder)) ?? []
        for name in entries {
            guard let match = ConflictCopyName.match(name) else { continue }
            // Copies of the tags beside the tags, of months in year folders only (as `ConflictCopyMerger.conflictCopies()`).
            guard folder.isEmpty == (match.primaryName == DocumentName.tagsPath) else { continue }
            guard BackingFiles.status(path + "/" + (folder.isEmpty ? name : folder + "/" + name))?.isRegularFile == true else { continue }
            found[match.primaryName, default: []].append(name)
        }
        state.withLock { $0.folders[folder] = found }
        return found
    }

    /// Whether reads of this store merge conflict copies and `relative` has any beside it.
    func hasCopies(_ relative: String) -> Bool {
        isMerging && !copyPaths(of: relative).isEmpty
    }

    /// `loaded` (the document just read from `relative`, or nil when it has no file) with every
    /// conflict copy beside it merged in memory, when this store merges them; nil when there is
    /// neither a document nor a copy that loads.
    func merging(into loaded: LoadedDocument?, relative: String) -> LoadedDocument? {
        guard isMerging else { return loaded }
        var result = loaded
        for copy in copyPaths(of: relative) {
            let incoming: Document
            do {
                incoming = try Document.load(try BackingFiles.read(path + "/" + copy))
                if let reason = incoming.unappliedChangesReason { throw StoreError.unloadableDocument(file: copy, reason: reason) }
            } catch {
                state.withLock { $0.unreadable[copy] = "\(error)" }
                continue
            }
            var merging = result ?? LoadedDocument(document: Document(actor: actor), identity: nil, view: nil, savedChangeCount: -1)
            do {
                try merging.document.merge(incoming)
            } catch {
                state.withLock { $0.unreadable[copy] = error.description }
                continue
            }
            merging.noteMerged()
            result = merging
            state.withLock { _ = $0.merged.insert(copy) }
        }
        return result
    }

    /// The months of a year folder whose document is absent but which have a conflict copy, when
    /// this store merges them (a mount would show them once merged).
    func monthsWithOnlyCopies(inYear yearName: String) -> [Month] {
        guard isMerging else { return [] }
        return copyNames(inFolder: "records/" + yearName).keys.compactMap { Month(yearName: yearName, documentName: $0) }
    }
}
