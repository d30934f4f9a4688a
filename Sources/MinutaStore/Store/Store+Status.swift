import AutomergeKit

/// What the store has done, and the concurrent values it holds (`.minutafs/status`, `.minutafs/conflicts`).
extension Store {
    public struct Status: Sendable {
        public var documentsLoaded: Int
        public var documentsSaved: Int
        public var mergedCopies: Int
        public var lastMerge: String?
        public var rejectedWrites: Int
        /// Finished synchronization passes (`Synchronization/SynchronizationPasses.swift`).
        public var synchronizationPasses: Int
        /// Passes whose merge of conflict copies failed, and what the last one said.
        public var failedMerges: Int
        public var lastMergeFailure: String?
        /// Document files that do not load (SPEC 5a), in path order, each with why and where this
        /// store kept the changes it held that the file may lack.
        public var unreadableDocuments: [UnreadableDocumentStatus]
        /// Whether the backing folder was found moved, deleted or replaced (`Backing/BackingFolder.swift`).
        public var backingFolderGone = false
        /// Deferred work (a removal after its grace period, a file held while written) that failed after
        /// the program was told it succeeded; each one is in `.minutafs/errors`.
        public var failedDeferredWork = 0
    }

    /// A document file that does not load, for `.minutafs/status` and `minutafs check`.
    public struct UnreadableDocumentStatus: Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var reason: UnreadableReason
        /// The conflict copy holding this store's changes that the file may lack, if it held any.
        public var preservedIn: String?

        public var description: String {
            "\(file): cannot be loaded: \(reason); \(DocumentFiles.shownName(of: file)) is read-only until a readable version replaces it"
                + (preservedIn.map { "; this mount's changes are kept in \($0)" } ?? "")
        }
    }

    public func status() -> Status {
        let loaded = replicas.publishedViews.loadedDocumentCount + (replicas.tags.isHeld ? 1 : 0)
        let noted = events.snapshot
        let passes = synchronizationPasses.snapshot
        return Status(documentsLoaded: loaded, documentsSaved: noted.savedDocumentCount,
                      mergedCopies: noted.mergedCopyCount, lastMerge: noted.lastMerge, rejectedWrites: noted.rejectedWriteCount,
                      synchronizationPasses: passes.passes, failedMerges: passes.failedMerges,
                      lastMergeFailure: passes.lastFailure,
                      unreadableDocuments: unreadable.all.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
                          UnreadableDocumentStatus(file: $0.key, reason: $0.value.reason, preservedIn: $0.value.preservedIn)
                      }, backingFolderGone: noted.backingFolderGone, failedDeferredWork: noted.failedDeferredWork)
    }

    /// Notes, for `.minutafs/errors`, status and the log, that work done after a program was told it
    /// succeeded (`what`: a removal after its grace period, a file held while written) failed; the
    /// mount keeps what it was given and says so in `outcome`.
    public func noteDeferredFailure(_ what: String, error: String, outcome: String) {
        events.noteDeferredFailure("\(what) failed after the program was told it succeeded: \(error); \(outcome)")
    }

    /// The concurrent values of one record (`Events/ConflictReport.swift`).
    public func conflictLines(forRecord id: String, in month: Month) throws(StoreError) -> [String] {
        try conflicts.lines(forRecord: id, in: month)
    }

    /// Every field of every loaded document with concurrent values, the values merges and saves
    /// replaced, and edits lost to deletions (`Events/ConflictReport.swift`).
    public func conflictReport() throws(StoreError) -> [String] {
        try conflicts.lines()
    }
}
