import FileTreeInterface
import SystemPackage
import Dispatch

/// Scratch files that settle into the tree (`FileTree.settles(fileNamed:inDirectory:)`): a name such as
/// `x.json.new`, `x.json.tmp.123` or `notes.txt` is held in memory while it is written, because most such
/// files are the first half of a write-then-rename save. Renamed onto the tree's name, it is a save and
/// the tree never sees the temporary name. Still there `settleDelay` seconds after its last handle
/// closed, it is a file the user really put there, and the tree gets it with one `write` (which may
/// refuse it: the file is then dropped and the refusal logged; the tree says why in its own way).
extension FuseFileSystem {
    /// Starts the wait of a settling scratch file whose last handle on `inode` closed (or that was renamed
    /// to another scratch name); a later call supersedes it.
    func scheduleSettling(ofInode inode: UInt64) {
        let scheduled = state.withLock { state -> (path: String, token: UInt64)? in
            guard let path = state.inodes.path(ofInode: inode), state.scratch[path]?.settles == true,
                  state.handles.handles(ofInode: inode).isEmpty else { return nil }
            let token = state.nextSettleToken
            state.nextSettleToken += 1
            state.scratch[path]?.settleToken = token
            return (path, token)
        }
        guard let scheduled else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + settleDelay) { [weak self] in
            self?.settle(scheduled.path, token: scheduled.token, evenIfOpen: false)
        }
    }

    /// Gives every settling scratch file to the tree now (when the mount ends).
    func settleAll() {
        let due = state.withLock { state in
            state.scratch.settlingPaths.compactMap { path in state.scratch[path].map { (path, $0.settleToken) } }
        }
        for (path, token) in due { settle(path, token: token, evenIfOpen: true) }
    }

    /// `fsync` of a settling scratch file: a file of the user's own (`FileTree.settlesWhenSynced`) goes
    /// to the tree now, and the program learns the outcome: 0 once the tree holds it durably, else the
    /// tree's error (the bytes stay here, shown in the folder, and in the journal). The temporary half of
    /// a save stays in memory, journaled durably: its rename is the save.
    func settleNow(ofInode inode: UInt64) throws(Errno) {
        guard let path = state.withLock({ $0.inodes.path(ofInode: inode) }) else { return }
        try settleNow(atPath: path)
    }

    /// `settleNow(ofInode:)` for the scratch file at `path`.
    func settleNow(atPath path: String) throws(Errno) {
        let due = state.withLock { state -> (contents: [UInt8], token: UInt64)? in
            guard let file = state.scratch[path], file.settles else { return nil }
            return (file.contents, file.settleToken)
        }
        guard let due else { return }
        guard tree.settlesWhenSynced(due.contents, atPath: path) else {
            try journalSettlingFile(atPath: path, durably: true)
            return
        }
        do throws(TreeError) {
            try tree.write(due.contents, toPath: path)
        } catch {
            log("\(path): fsync wrote it to the tree, which refused it: \(error); the bytes stay in the mount")
            try? journalSettlingFile(atPath: path, durably: true)
            throw error.code
        }
        finishSettling(path, token: due.token, contents: due.contents)
    }

    /// A file an earlier mount acknowledged and had not given to the tree (found in the journal): it is
    /// a settling scratch file again, given to the tree now; if the tree cannot take it yet, it stays
    /// shown and journaled and is tried again, as after any failed settling.
    func settleRecovered(_ path: String, contents: [UInt8]) {
        let now = TreeTime.now()
        let token = state.withLock { state -> UInt64 in
            var file = ScratchFile(contents: contents, permissions: 0o644, modificationTime: now, accessTime: now, settles: true)
            file.journaledGeneration = file.generation
            let token = state.nextSettleToken
            state.nextSettleToken += 1
            file.settleToken = token
            state.scratch[path] = file
            return token
        }
        settle(path, token: token, evenIfOpen: false)
    }

    /// Writes the scratch file at `path` to the tree, unless it was renamed, removed, reopened or
    /// scheduled again since `token` was given.
    ///
    /// Refused content (`EINVAL`: a record's JSON under a name that is not a record's) is dropped: the
    /// tree keeps its bytes where it shows refused writes. Any other failure (a full or read-only folder,
    /// a document that does not load) keeps the file here, shown in its folder, says so once through
    /// `FileTree.didFailDeferredWork` (the program's `close` returned 0 long ago), and tries again later.
    func settle(_ path: String, token: UInt64, evenIfOpen: Bool) {
        let contents = state.withLock { state -> [UInt8]? in
            guard let file = state.scratch[path], file.settles, file.settleToken == token else { return nil }
            if !evenIfOpen, let inode = state.inodes.inode(atPath: path), !state.handles.handles(ofInode: inode).isEmpty {
                return nil  // open again: its last close schedules it again
            }
            return file.contents
        }
        guard let contents else { return }
        do throws(TreeError) {
            try tree.write(contents, toPath: path)
        } catch where error.code != .invalidArgument {
            keepAfterFailedSettling(path, token: token, error: error, retrying: !state.withLock { $0.isEnding })
            return
        } catch {
            log("\(path): kept in memory while written, then given to the tree, which refused it: \(error)")
            dropRefused(path, token: token)
            return
        }
        finishSettling(path, token: token, contents: contents)
    }

    /// The tree took the scratch file at `path`: it is the tree's file from now on.
    private func finishSettling(_ path: String, token: UInt64, contents: [UInt8]) {
        let (notices, hadFailed) = state.withLock { state -> ([KernelCacheNotice], Bool) in
            // Changed since it was read (written, renamed, scheduled again): what the tree got is not all.
            guard let file = state.scratch[path], file.settleToken == token, file.contents == contents else { return ([], false) }
            state.scratch.remove(path)
            guard let inode = state.inodes.inode(atPath: path) else { return ([], file.deferredFailure != nil) }
            state.forgetCachedContent(ofInode: inode)
            return ([.inode(inode)], file.deferredFailure != nil)
        }
        forgetSettlingFile(atPath: path)
        dropRemovals(supersededBy: contents, savedAt: path)
        if hadFailed { log("\(path): written to the folder after all") }
        if !notices.isEmpty { invalidator.invalidate(notices) }
    }

    /// The tree refused the content: the scratch file goes, and the folder's listing with it.
    private func dropRefused(_ path: String, token: UInt64) {
        let notices = state.withLock { state -> [KernelCacheNotice] in
            guard state.scratch[path]?.settleToken == token else { return [] }
            state.scratch.remove(path)
            var notices: [KernelCacheNotice] = []
            if let inode = state.inodes.inode(atPath: path) {
                state.forgetCachedContent(ofInode: inode)
                notices.append(.inode(inode))
            }
            state.inodes.detach(path)
            if let parent = state.inodes.inode(atPath: TreePath.parent(of: path)) {
                notices.append(.entry(parent: parent, name: TreePath.name(of: path)))
                notices.append(.inode(parent))  // the folder's listing the kernel may keep
            }
            return notices
        }
        forgetSettlingFile(atPath: path)
        if !notices.isEmpty { invalidator.invalidate(notices) }
    }

    /// The tree could not take the scratch file now: it stays in the mount with its bytes (and in the
    /// journal), the failure is reported once per error, and (while the mount runs) it is tried again
    /// after another `settleDelay`.
    private func keepAfterFailedSettling(_ path: String, token: UInt64, error: TreeError, retrying: Bool) {
        let isNew = state.withLock { state -> Bool? in
            guard state.scratch[path]?.settleToken == token else { return nil }
            let isNew = state.scratch[path]?.deferredFailure != error.code
            state.scratch[path]?.deferredFailure = error.code
            return isNew
        }
        guard let isNew else { return }
        // Normally journaled at its close already; this covers a journal that failed then.
        try? journalSettlingFile(atPath: path)
        let isJournaled = journal?.holds(path: path, isRemoval: false) == true
        log("\(path): could not be written to the folder after its last close: \(error); kept in the mount\(isJournaled ? " and in the journal" : "")")
        if isNew || !retrying {
            let outcome: String
            switch (retrying, isJournaled) {
            case (true, true):
                outcome = "its bytes stay in the mount at \(path) and in the journal \(journal?.folder ?? ""), and are written to the folder once it takes them"
            case (true, false):
                outcome = "its bytes stay in the mount at \(path) and are written to the folder once it takes them"
            case (false, true):
                outcome = "the mount is ending: its bytes stay in the journal \(journal?.folder ?? ""), and the next mount of this store writes them"
            case (false, false):
                outcome = "the mount is ending and has no journal, so its bytes are lost"
            }
            tree.didFailDeferredWork("writing \(path) to the folder", error: error, outcome: outcome)
        }
        guard retrying else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + max(settleDelay, 1)) { [weak self] in
            self?.settle(path, token: token, evenIfOpen: false)
        }
    }
}
