import FileTreeInterface
import Foundation
import Synchronization

/// Keeps a served store in step with its folder while the sync tool changes it: merges the conflict
/// copies and replaced documents it delivers, notices deleted documents, and reports every path whose
/// contents or listing changed to the tree's change handler (so the mount drops the kernel's caches).
///
/// A pass runs at `start`, on every burst of inotify events (`FolderWatcher`), every ``period`` seconds
/// (what inotify cannot see: network file systems, a queue overflow), and once more after `stop` by the
/// caller. The watcher and the periodic pass are two threads that both end on one `EventSignal`.
public final class StoreSynchronizer: Sendable {
    public let tree: StoreView
    /// Seconds between two periodic passes.
    public let period: Double
    private let stopSignal: EventSignal
    /// Each pass that found something is logged here (`mount --verbose`).
    private let debugLog: @Sendable (String) -> Void
    /// Held for the whole of a pass: the watcher's and the periodic thread's passes never overlap, so two
    /// of them never work on the same conflict copy (the second would find it gone and count a failed merge).
    private let passInProgress = Mutex(())

    public init(tree: StoreView, period: Double = 5, debugLog: @escaping @Sendable (String) -> Void = { _ in }) throws(StoreError) {
        self.tree = tree
        self.period = period
        self.debugLog = debugLog
        do { stopSignal = try EventSignal() } catch {
            throw .system(file: tree.store.path, operation: "eventfd (to stop the folder watcher)", errno: error)
        }
    }

    private var store: Store { tree.store }

    /// A first pass (what the sync tool delivered while nothing was mounted), the store's background
    /// work, then the watcher and the periodic pass. The periodic pass also hands the heap memory
    /// saves freed back to the system (`HeapTrimmer`).
    public func start() {
        synchronize()
        tree.startBackgroundWork { [self] documents in reportChanged(documents: documents) }
        // Without inotify, the periodic pass alone notices changes.
        _ = FolderWatcher(root: store.path, stop: stopSignal) { [self] in synchronize() }
        let periodic = Thread { [self] in
            var trimmer = HeapTrimmer()
            while !stopSignal.wait(seconds: period) {
                synchronize()
                trimmer.trim(ifSavedSince: store.status().documentsSaved)
            }
        }
        periodic.start()
    }

    /// Ends the watcher and the periodic pass at once (a pass under way finishes first).
    public func stop() {
        stopSignal.signal()
    }

    /// Merges what the sync tool delivered (conflict copies, replaced documents) and reports the
    /// paths whose contents or listings changed: the month folders and every record file in them.
    public func synchronize() {
        passInProgress.withLock { _ in synchronizeOnce() }
    }

    /// One pass. It is counted (`.minutafs/status`, "synchronization passes") only once all of it is
    /// done, the kernel's caches of what it changed included: a pass counted after a change of the
    /// folder began has brought that change in.
    private func synchronizeOnce() {
        // The folder at the store's path is no longer the store's (moved, deleted, replaced): nothing
        // there is merged or written, and the store says so once (SPEC 5b).
        do throws(StoreError) { try store.requireBackingFolder() } catch {
            store.synchronizationPasses.countPass(mergeFailure: nil)
            return
        }
        synchronizeFolderChanges()
        var documents: [String] = []
        do {
            documents = try store.synchronizeDocuments()
            if !documents.isEmpty { debugLog("merged documents the sync tool replaced: \(documents)") }
        } catch {
            debugLog("merging replaced documents failed: \(error)")
            DocumentSynchronizer(store: store).noteFailure(error)
        }
        let merged = mergeConflictCopies()
        documents += merged.documents
        if !documents.isEmpty {
            // Another device's edits to records this mount moved away, merged just now into their old month.
            if let carried = try? store.carryEditsToMovedRecords() { documents += carried.map { $0 + ".automerge" } }
            reportChanged(documents: documents)
        }
        // Only now, with the kernel's caches of them dropped, can a program read what the merges changed:
        // a save read before this is judged stale for those fields (SPEC 5b). Merges made elsewhere (a
        // document loaded or written back meanwhile) are published by this too.
        store.publishMerges()
        store.synchronizationPasses.countPass(mergeFailure: merged.failure)
    }

    /// Merges the conflict copies beside the documents and removes image copies identical to their
    /// originals (reporting the copies' paths): the documents that changed, and the first copy left
    /// waiting (counted as a failed merge), if any.
    private func mergeConflictCopies() -> (documents: [String], failure: String?) {
        var documents: [String] = []
        var failure: String?
        var removed: [String] = []
        defer { tree.report(removed) }
        do {
            for report in try store.mergeConflictCopies() {
                debugLog("conflict copy \(report.copy) into \(report.primary): \(report.outcome)")
                switch report.outcome {
                case .merged: documents.append(report.primary)
                case .duplicateRemoved: removed.append("/" + report.copy)
                // Left as it is (its document does not load, the disk is full): merged on a later pass.
                case .waiting: failure = failure ?? report.description
                case .quarantined: break
                }
            }
        } catch {
            debugLog("merging conflict copies failed; they stay as they are: \(error)")
            failure = error.description
        }
        return (documents, failure)
    }

    /// Reports the paths whose contents or listings change with these documents (relative paths).
    func reportChanged(documents: [String]) {
        var paths: [String] = []
        for document in Set(documents) {
            switch DocumentName(relativePath: document) {
            case .tags?:
                // Every report names and colors tags.
                paths.append("/tags.json")
                paths += tree.reportPaths(showing: (try? store.months()) ?? [])
            case .month(let month)?:
                paths += changedPaths(of: month)
            case nil:
                continue
            }
        }
        tree.report(paths)
    }

    /// What `synchronize` looks at before merging: month documents deleted from the folder (or back)
    /// are noticed; their paths are reported.
    private func synchronizeFolderChanges() {
        var paths: [String] = []
        for month in store.noticeDeletedDocuments() { paths += changedPaths(of: month) }
        tree.report(paths)
    }

    /// A month's folder, its record files and the reports that show it.
    private func changedPaths(of month: Month) -> [String] {
        let folder = "/" + month.folderPath
        // A month that cannot be listed now has no cached record files to drop.
        let files = ((try? store.recordFiles(in: month)) ?? []).map { folder + "/" + $0.name }
        return [folder] + files + tree.reportPaths(showing: [month])
    }
}
