import FileTreeInterface
import SystemPackage

/// The mount's journal of deferred work (SPEC 5b): what the mount answered 0 for and has not yet done
/// to the tree is in `journal` before the 0 is sent, so a killed or unmounted mount loses none of it.
///
/// - A scratch file that settles (`FileTree.settles`) is journaled with its bytes at every `close`
///   (flush), `fsync` and truncation, and forgotten once the tree took it, it was renamed onto the
///   tree's name (a save), removed, or refused (the tree keeps refused bytes itself).
/// - An `rm` of the tree's file is journaled before `unlink` returns, and forgotten once the tree
///   removed the file, or once a file saved at the same path replaced it.
/// - At the next mount (`recoverJournal`), before the kernel sees the tree, each entry is carried out;
///   what the tree still refuses stays, shown in the mount and retried, as when it first failed.
///
/// The journal's lock comes before the adapter's `state` (its `when:` conditions read the state), and
/// the journal is never called with `state` held.
extension FuseFileSystem {
    /// Journals the settling scratch file at `path` if its bytes changed since it was last journaled
    /// (`durably`: always, fsynced).
    ///
    /// - Throws: the journal's write error: the program's `close` or `fsync` learns the bytes are only in
    ///   memory.
    func journalSettlingFile(atPath path: String, durably: Bool = false) throws(Errno) {
        guard let journal else { return }
        let due = state.withLock { state -> (contents: [UInt8], generation: UInt64)? in
            guard let file = state.scratch[path], file.settles, durably || file.journaledGeneration != file.generation else { return nil }
            return (file.contents, file.generation)
        }
        guard let due else { return }
        let isCurrent = { [self] in
            state.withLock { state in state.scratch[path]?.settles == true && state.scratch[path]?.generation == due.generation }
        }
        do throws(Errno) {
            try journal.record(JournalEntry(path: path, work: .write(contents: due.contents)), durably: durably, when: isCurrent)
        } catch {
            log("\(path): could not be kept in the journal \(journal.folder): \(error); its bytes are only in the mount's memory")
            throw error
        }
        state.withLock { state in
            if state.scratch[path]?.generation == due.generation { state.scratch[path]?.journaledGeneration = due.generation }
        }
    }

    /// The journal entry of a scratch file that was at `path` goes, unless the file there now has
    /// journaled bytes of its own.
    func forgetSettlingFile(atPath path: String) {
        journal?.forget(path: path, isRemoval: false) { [self] in
            state.withLock { $0.scratch[path]?.journaledGeneration == nil }
        }
    }

    /// Journals the removal of the tree's file at `path`, before `unlink` returns.
    func journalRemoval(ofPath path: String) throws(Errno) {
        guard let journal else { return }
        do throws(Errno) {
            try journal.record(JournalEntry(path: path, work: .removal))
        } catch {
            log("rm \(path): could not be kept in the journal \(journal.folder): \(error); removing it at once instead")
            throw error
        }
    }

    /// The removal journaled for `path` is done or replaced: its entry goes, unless another removal of
    /// `path` waits now.
    func forgetRemoval(ofPath path: String) {
        journal?.forget(path: path, isRemoval: true) { [self] in
            state.withLock { $0.pendingRemovals[ExactPath(path)] == nil }
        }
    }

    /// A file was saved at `path`: a removal it replaced (see `MountState.replacedRemovals`) is no longer owed.
    func noteSaved(atPath path: String) {
        guard state.withLock({ $0.replacedRemovals.remove(ExactPath(path)) != nil }) else { return }
        forgetRemoval(ofPath: path)
    }

    /// Carries out what an earlier mount of the tree left in the journal, in the order it was written,
    /// and reports journal files that are not whole entries. Called before the kernel sees the tree.
    func recoverJournal() {
        guard let journal else { return }
        for damaged in journal.damaged {
            let error = TreeError(.ioError, reason: damaged.reason)
            log("the journal file \(damaged.path) is not a whole entry (\(damaged.reason)); left as it is")
            tree.didFailDeferredWork(
                "reading the journal file \(damaged.path)", error: error,
                outcome: "it is left as it is: look at it, and delete it once nothing in it is needed")
        }
        guard !journal.recovered.isEmpty else { return }
        log("carrying out \(journal.recovered.count) change(s) an earlier mount acknowledged and had not written to the folder (journal \(journal.folder))")
        for entry in journal.recovered {
            switch entry.work {
            case .write(let contents): settleRecovered(entry.path, contents: contents)
            case .removal: removeRecovered(entry.path)
            }
        }
    }

    /// What the journal still holds when the mount ends, for the log.
    func reportJournalAtEnd() {
        guard let journal else { return }
        let waiting = journal.waiting
        guard !waiting.isEmpty else { return }
        log("\(waiting.count) acknowledged change(s) could not be written to the folder and stay in the journal \(journal.folder); the next mount of this store writes them: \(waiting.joined(separator: "; "))")
    }

    /// `fsyncdir`: what the mount owes the folder at `inode` is made durable: its pending removals are
    /// carried out now, its settling files of the user's own go to the tree now (as `fsync` of each
    /// does), and the journal (holding the rest, such as the temporary half of a save) is fsynced.
    ///
    /// - Throws: the first failure; what failed stays journaled and pending.
    func syncDirectory(inode: UInt64) throws(Errno) {
        if isReadOnly { return }
        let directory = try path(ofInode: inode)
        var failure = completePendingRemovals { TreePath.parent(of: $0) == directory }
        let settling = state.withLock { state in
            state.scratch.settlingPaths.filter { TreePath.parent(of: $0) == directory }
        }
        for path in settling {
            do throws(Errno) {
                try settleNow(atPath: path)
            } catch {
                if failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
        do throws(Errno) {
            try journal?.makeDurable()
        } catch {
            log("fsync of the journal \(journal?.folder ?? ""): \(error)")
            throw error
        }
    }
}
