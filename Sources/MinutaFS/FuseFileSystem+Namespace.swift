import FileTreeInterface
import Dispatch
import SystemPackage

/// The flags of `renameat2(2)`.
struct RenameFlags: OptionSet, Equatable {
    let rawValue: UInt32
    /// `RENAME_NOREPLACE`: fail with `EEXIST` rather than replace the destination.
    static let noReplace = RenameFlags(rawValue: 1)
    /// `RENAME_EXCHANGE`: swap source and destination.
    static let exchange = RenameFlags(rawValue: 2)
}

extension FuseFileSystem {
    /// `mkdir`: the tree makes the directory.
    func makeDirectory(_ name: String, inDirectory parent: UInt64) throws(Errno) -> NodeAttributes {
        if isReadOnly { throw .readOnlyFileSystem }
        let path = try path(of: name, inDirectory: parent)
        try fromTree { () throws(TreeError) in try tree.checkWritable(atPath: path) }
        try fromTree { () throws(TreeError) in try tree.makeDirectory(atPath: path) }
        var attributes = try attributes(ofPath: path)
        attributes.inode = state.withLock { $0.inodes.lookUp(path) }
        return attributes
    }

    /// `symlink`, `mknod` (a FIFO, a socket, a device) and `link`: the tree holds record files and
    /// images, and scratch files are regular files, so none of these can be made. Read-only views and a
    /// read-only mount answer `EROFS` (SPEC sections 8 and 9: every change there fails so); elsewhere
    /// `EPERM`, what link(2) and symlink(2) give on a file system that does not support them.
    ///
    /// - Throws: `EROFS` or `EPERM`, always; `ENOENT` when `parent` is unknown.
    func refuseSpecialNode(_ name: String, inDirectory parent: UInt64) throws(Errno) -> Never {
        if isReadOnly { throw .readOnlyFileSystem }
        let directory = try path(ofInode: parent)
        if isReadOnlyView(directory) { throw .readOnlyFileSystem }
        throw .notPermitted
    }

    /// `unlink`: drops a scratch file, or has the tree remove its file.
    ///
    /// A file the tree accepts is hidden at once but removed from the tree only `removalDelay` seconds
    /// later; a file created at the same path before then replaces it with a save instead. That turns
    /// `mv` from another file system (unlink, then create) and `rm x; cp y x` into an update of the same
    /// record rather than a delete and a re-create (SPEC section 4). Failures of the late removal are logged.
    func unlink(_ name: String, inDirectory parent: UInt64) throws(Errno) {
        if isReadOnly { throw .readOnlyFileSystem }
        let directory = try path(ofInode: parent)
        let path = TreePath.appending(name, to: directory)
        enum Kind {
            case scratch, unsaved, tree
        }
        let kind = try state.withLock { state throws(Errno) -> Kind in
            if state.pendingRemovals[ExactPath(path)] != nil { throw .noSuchFileOrDirectory }
            if state.scratch.remove(path) != nil {
                state.inodes.detach(path)
                return .scratch
            }
            if let inode = state.inodes.inode(atPath: path),
                state.handles.files.values.contains(where: { $0.inode == inode && $0.isUnsaved })
            {
                // Created and never saved: it only existed in its handle, whose save now goes nowhere (and a
                // file kept empty after its close goes with it).
                state.handles.closeKept(ofInode: inode)
                state.inodes.detach(path)
                return .unsaved
            }
            return .tree
        }
        if kind == .scratch { forgetSettlingFile(atPath: path) }
        guard kind == .tree else { return }

        let attributes = try fromTree { () throws(TreeError) in try tree.attributes(ofPath: path) }
        if attributes.isDirectory { throw .isDirectory }
        // A file the tree shows read-only (its month's document does not load, or is gone) is removed
        // now or refused now: a deferred removal would return 0 and then fail.
        guard removalDelay > 0, attributes.isWritable, tree.accepts(fileNamed: name, inDirectory: directory) else {
            try fromTree { () throws(TreeError) in try tree.removeFile(atPath: path) }
            state.withLock { $0.inodes.detach(path) }
            return
        }
        try fromTree { () throws(TreeError) in try tree.checkWritable(atPath: path) }
        do throws(Errno) {
            // Kept before the 0 goes back: a mount killed during the grace period still owes the removal.
            try journalRemoval(ofPath: path)
        } catch {
            // Not journaled: carried out now, or refused now.
            try fromTree { () throws(TreeError) in try tree.removeFile(atPath: path) }
            state.withLock { $0.inodes.detach(path) }
            return
        }
        scheduleRemoval(of: path, hidingOnly: false, identity: identity(ofTreeFileAt: path))
    }

    /// The identity of the tree's file at `path` as it is now (`FileTree.identity(ofContents:atPath:)`).
    private func identity(ofTreeFileAt path: String) -> String? {
        (try? tree.contents(ofPath: path)).flatMap { tree.identity(ofContents: $0, atPath: path) }
    }

    /// A file holding `contents` was saved at `path`: removals pending of files of the same identity
    /// (`FileTree.identity(ofContents:atPath:)`), whatever their names, are of this file, saved again
    /// before they were due (`mv` out of the mount and back under another name). They are dropped with
    /// their journal entries, and the kernel, which cached their absence, is told.
    func dropRemovals(supersededBy contents: [UInt8], savedAt path: String) {
        guard state.withLock({ !$0.removalIdentities.isEmpty }), let identity = tree.identity(ofContents: contents, atPath: path) else { return }
        let dropped = state.withLock { $0.dropRemovals(ofIdentity: identity) }
        guard !dropped.isEmpty else { return }
        for removed in dropped { forgetRemoval(ofPath: removed) }
        treeDidChange(TreeChange(paths: dropped))
    }

    /// Removes the tree's file at `path` in `removalDelay` seconds, unless something is saved at the path
    /// before; with `hidingOnly`, the file only disappears meanwhile and shows again unchanged. Until
    /// then the path is absent (an unlinked file's inode detached at once).
    private func scheduleRemoval(of path: String, hidingOnly: Bool, identity: String? = nil) {
        let token = state.withLock { state in
            let token = state.nextRemovalToken
            state.nextRemovalToken += 1
            state.pendingRemovals[ExactPath(path)] = token
            state.removalIdentities[token] = identity
            if hidingOnly {
                state.hidingTokens.insert(token)
            } else {
                state.inodes.detach(path)
            }
            return token
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + removalDelay) { [weak self] in
            self?.completeRemoval(ofPath: path, token: token)
        }
    }

    /// Removes an unlinked file from the tree, unless something was saved at its path since.
    private func completeRemoval(ofPath path: String, token: UInt64) {
        enum Due { case none, remove, show }
        let due = state.withLock { state -> Due in
            let hides = state.hidingTokens.remove(token) != nil
            guard state.pendingRemovals[ExactPath(path)] == token else {
                state.removalIdentities[token] = nil
                return .none
            }
            if hides { state.pendingRemovals[ExactPath(path)] = nil }
            return hides ? .show : .remove
        }
        switch due {
        case .none: break
        case .remove: _ = removeFromTree(path, token: token)
        case .show: treeDidChange(TreeChange(paths: [path]))  // the kernel cached its absence
        }
    }

    /// A removal the journal held when the mount started (an `rm` an earlier mount acknowledged): carried
    /// out now, or kept pending and retried like any removal that failed.
    func removeRecovered(_ path: String) {
        let identity = identity(ofTreeFileAt: path)
        let token = state.withLock { state in
            let token = state.nextRemovalToken
            state.nextRemovalToken += 1
            state.pendingRemovals[ExactPath(path)] = token
            state.removalIdentities[token] = identity
            return token
        }
        _ = removeFromTree(path, token: token)
    }

    /// Hides the tree's file at `path` for `removalDelay` seconds after it was renamed onto a scratch name
    /// (`cp --backup`, `mv f f~`): a file created there meanwhile (`O_EXCL` included) is a save of it;
    /// otherwise it shows again, unchanged.
    private func hideAfterBackup(_ path: String) {
        guard removalDelay > 0 else { return }
        scheduleRemoval(of: path, hidingOnly: true)
    }

    /// Carries out now the pending removals of the paths `matching` (all of them when the mount ends).
    /// Returns the first failure; what failed stays pending and journaled.
    @discardableResult
    func completePendingRemovals(matching isIncluded: (String) -> Bool = { _ in true }) -> Errno? {
        let due = state.withLock { state in
            var removals: [(path: String, token: UInt64)] = []
            for (key, token) in state.pendingRemovals where isIncluded(key.path) {
                if state.hidingTokens.remove(token) == nil {
                    removals.append((key.path, token))
                } else {
                    state.pendingRemovals[key] = nil
                }
            }
            return removals
        }
        var failure: Errno?
        for removal in due {
            if let error = removeFromTree(removal.path, token: removal.token), failure == nil { failure = error.code }
        }
        return failure
    }

    /// Removes a file whose `unlink` returned 0 a while ago, if its removal (`token`) is still the one
    /// pending, and forgets its journal entry. When the tree cannot (the folder is full or read-only),
    /// the removal stays pending (the file stays absent from the mount) and journaled, the failure is
    /// reported once where users look (`FileTree.didFailDeferredWork`), and it is tried again while the
    /// mount runs. Returns the tree's error.
    private func removeFromTree(_ path: String, token: UInt64) -> TreeError? {
        var failure: TreeError?
        do throws(TreeError) {
            try tree.removeFile(atPath: path)
        } catch .notFound {
            // Gone already (a sync tool, or the tree itself).
        } catch {
            failure = error
        }
        guard let failure else {
            let removed = state.withLock { state -> Bool in
                state.removalIdentities[token] = nil
                guard state.pendingRemovals[ExactPath(path)] == token else { return false }
                state.pendingRemovals[ExactPath(path)] = nil
                state.failedRemovals[ExactPath(path)] = nil
                return true
            }
            if removed { forgetRemoval(ofPath: path) }
            return nil
        }
        let (isNew, retrying) = state.withLock { state -> (Bool, Bool) in
            let isNew = state.failedRemovals[ExactPath(path)] != failure.code
            state.failedRemovals[ExactPath(path)] = failure.code
            return (isNew, !state.isEnding)
        }
        log("rm \(path): the tree refused the removal: \(failure)")
        if isNew || !retrying {
            let kept = journal.map { " in the journal \($0.folder)" } ?? ""
            tree.didFailDeferredWork(
                "rm \(path)", error: failure,
                outcome: retrying
                    ? "the file stays removed from the mount and the removal waits\(kept); it is carried out once the folder takes it"
                    : (journal == nil ? "the mount is ending without a journal: the file was not removed" : "the mount is ending: the removal stays\(kept), and the next mount of this store carries it out"))
        }
        if retrying {
            DispatchQueue.global().asyncAfter(deadline: .now() + max(removalDelay, 1)) { [weak self] in
                self?.completeRemoval(ofPath: path, token: token)
            }
        }
        return failure
    }

    /// `rmdir`: the tree removes the directory; scratch files in it make it not empty.
    func removeDirectory(_ name: String, inDirectory parent: UInt64) throws(Errno) {
        if isReadOnly { throw .readOnlyFileSystem }
        let path = try path(of: name, inDirectory: parent)
        // Files only the mount holds: scratch files, and files created and not saved yet (or kept empty).
        if state.withLock({ $0.scratch.hasFiles(within: path) || $0.hasUnsavedFiles(within: path) }) { throw .directoryNotEmpty }
        // `rm -r` unlinked the files a moment ago: they must be gone from the tree before the folder.
        completePendingRemovals { TreePath.isWithin($0, directory: path) }
        try fromTree { () throws(TreeError) in try tree.removeDirectory(atPath: path) }
        state.withLock { $0.inodes.detach(path) }
    }

    /// `rename`, by what the two names are (SPEC section 4, editors' save patterns):
    /// - scratch onto scratch: the mount moves its own file;
    /// - scratch onto a name the tree accepts: a save (`sed -i`, rsync, `os.replace`): one `write` of the
    ///   scratch file's bytes, then the scratch file is gone;
    /// - accepted onto accepted: the tree renames its file;
    /// - accepted onto a scratch name (vim's backup): the scratch file gets a copy, and the tree's file
    ///   stays where it is, for the editor to write the new version into; it is hidden for `removalDelay`
    ///   seconds, so a program may create the new version with `O_EXCL` (`cp --backup`), and then shows again.
    ///
    /// `RENAME_EXCHANGE` works between two scratch files only (`EINVAL` otherwise); directories of the
    /// tree are not renamed (`EPERM`).
    func rename(
        _ name: String, inDirectory parent: UInt64, to newName: String, inDirectory newParent: UInt64, flags: RenameFlags,
        program: ProgramID? = nil
    ) throws(Errno) {
        if isReadOnly { throw .readOnlyFileSystem }
        if !flags.isSubset(of: [.noReplace, .exchange]) || flags == [.noReplace, .exchange] { throw .invalidArgument }
        let source = try path(of: name, inDirectory: parent)
        let destination = try path(of: newName, inDirectory: newParent)
        let sourceAttributes = try attributes(ofPath: source)
        if isInReadOnlyDirectory(source) || isInReadOnlyDirectory(destination) { throw .readOnlyFileSystem }
        if ExactPath(source) == ExactPath(destination) { return }
        let destinationAttributes: NodeAttributes?
        do throws(Errno) {
            destinationAttributes = try attributes(ofPath: destination)
        } catch .noSuchFileOrDirectory {
            destinationAttributes = nil
        }
        if flags.contains(.noReplace) && destinationAttributes != nil { throw .fileExists }
        let sourceIsScratch = isScratch(source)
        let destinationIsScratch = isScratch(destination)

        if flags.contains(.exchange) {
            guard destinationAttributes != nil else { throw .noSuchFileOrDirectory }
            guard sourceIsScratch && destinationIsScratch else { throw .invalidArgument }
            state.withLock { state in
                state.scratch.exchange(source, destination)
                state.inodes.exchange(source, destination)
                state.scratch[source]?.journaledGeneration = nil
                state.scratch[destination]?.journaledGeneration = nil
            }
            for path in [source, destination] {
                forgetSettlingFile(atPath: path)
                try journalSettlingFile(atPath: path)
            }
            return
        }
        if sourceAttributes.isDirectory { throw .notPermitted }
        if destinationAttributes?.isDirectory == true { throw .isDirectory }

        // A name that settles is the tree's for a file of the tree renamed onto it (`mv notes.txt old.txt`).
        let destinationIsAccepted = !destinationIsScratch
            && (tree.accepts(fileNamed: newName, inDirectory: TreePath.parent(of: destination))
                || (!sourceIsScratch && tree.settles(fileNamed: newName, inDirectory: TreePath.parent(of: destination))))
        if !destinationIsScratch && !destinationIsAccepted && destinationAttributes != nil {
            // A file of the tree under a name it does not take writes for (a read-only view).
            throw .permissionDenied
        }
        switch (sourceIsScratch, destinationIsAccepted) {
        case (true, false):
            // Whether it settles goes with the new name: a program that writes `.notes.txt.XXXXXX` and
            // renames it to `notes.txt` (Foundation's atomic write) gives the user a file of their own.
            let settles = tree.settles(fileNamed: newName, inDirectory: TreePath.parent(of: destination))
            state.withLock { state in
                state.scratch.remove(destination)
                state.scratch.move(source, to: destination)
                state.scratch[destination]?.settles = settles
                state.scratch[destination]?.journaledGeneration = nil
                state.inodes.move(source, to: destination)
            }
            // The journal follows the file: its new name first, then the old one goes.
            forgetSettlingFile(atPath: destination)
            try journalSettlingFile(atPath: destination)
            forgetSettlingFile(atPath: source)
            if let inode = state.withLock({ $0.inodes.inode(atPath: destination) }) { scheduleSettling(ofInode: inode) }
        case (true, true):
            try saveScratchFile(source, as: destination, program: program)
        case (false, true):
            // Renaming another record onto a name unlinked a moment ago: that removal happens first, as it
            // would have without the delay (only a save at that name replaces a pending removal).
            completePendingRemovals { ExactPath($0) == ExactPath(destination) }
            let replaced = retainReplacedVersion(atPath: destination)
            do throws(TreeError) {
                try tree.renameFile(from: source, to: destination)
            } catch .notFound where hasUnsavedFile(atPath: source) {
                // Created and never saved: its handle saves it under the new name. Not onto a file that is
                // there: a file of the tree is a record, which a file not saved (a `touch`ed one, empty)
                // must not hide, and renames onto a record are refused, as between records.
                if destinationAttributes != nil {
                    releaseRetainedVersion(ofInode: replaced, atPath: destination)
                    throw .notPermitted
                }
            } catch {
                releaseRetainedVersion(ofInode: replaced, atPath: destination)
                throw error.code
            }
            let replacedRemoval = state.withLock { state in
                state.inodes.move(source, to: destination)
                return state.pendingRemovals.removeValue(forKey: ExactPath(destination)) != nil  // replaced by the renamed file
            }
            if replacedRemoval { forgetRemoval(ofPath: destination) }
        case (false, false):
            try copyToScratch(source, as: destination, attributes: sourceAttributes)
            hideAfterBackup(source)
            if let parentInode = state.withLock({ $0.inodes.inode(atPath: TreePath.parent(of: source)) }) {
                invalidator.invalidate([.entry(parent: parentInode, name: name)])
            }
        }
    }

    /// A scratch file renamed onto an accepted name: the tree gets its bytes as one save, with what the
    /// renaming `program` read of the destination (`sed -i`, vim, `os.replace` wrote the temporary file
    /// from their read of it); once saved, it counts as read by that program.
    private func saveScratchFile(_ source: String, as destination: String, program: ProgramID?) throws(Errno) {
        guard let (contents, origin) = state.withLock({ state in
            state.scratch[source].map { ($0.contents, state.reads.origin(ofSaveTo: destination, by: program)) }
        }) else { throw .noSuchFileOrDirectory }
        let replaced = retainReplacedVersion(atPath: destination)
        do throws(TreeError) {
            try tree.write(contents, toPath: destination, origin: origin)
        } catch {
            releaseRetainedVersion(ofInode: replaced, atPath: destination)
            throw error.code
        }
        let saved = ContinuousClock.now
        let inode = state.withLock { state -> UInt64? in
            if let program { state.reads.noteRead(of: destination, by: program, at: saved) }
            state.scratch.remove(source)
            state.inodes.move(source, to: destination)
            state.pendingRemovals[ExactPath(destination)] = nil  // replaced by this save
            state.replacedRemovals.remove(ExactPath(destination))
            guard let inode = state.inodes.inode(atPath: destination) else { return nil }
            state.forgetCachedContent(ofInode: inode)
            return inode
        }
        forgetSettlingFile(atPath: source)
        forgetRemoval(ofPath: destination)
        dropRemovals(supersededBy: contents, savedAt: destination)
        // The kernel holds the scratch file's size and pages for this inode; the tree's may differ.
        if let inode { invalidator.invalidate(inode: inode) }
    }

    /// Before a rename replaces the tree's file at `path`: the inode the kernel knows that file by keeps
    /// its current bytes and attributes (see `RetainedVersion`), and its handles that have read nothing
    /// yet are given those bytes, all before the tree changes. Returns that inode, or nil when there is
    /// nothing to keep (no such file, or an inode the kernel holds no reference to).
    ///
    /// Until the rename's reply, the kernel's dentry still leads to this inode, and programs open and read
    /// it without taking the directory lock the rename holds; after the reply, those that resolved the name
    /// before it still have it. Both see the old version, whole, as on a disk.
    private func retainReplacedVersion(atPath path: String) -> UInt64? {
        let inode = state.withLock { state -> UInt64? in
            guard let inode = state.inodes.inode(atPath: path), !state.scratch.contains(path),
                state.inodes.isReferenced(inode) || !state.handles.handles(ofInode: inode).isEmpty
            else { return nil }
            return inode
        }
        guard let inode else { return nil }
        let version: RetainedVersion
        do throws(TreeError) {
            var attributes = try tree.attributes(ofPath: path)
            guard !attributes.isDirectory else { return nil }
            let contents = try tree.contents(ofPath: path)
            attributes.size = contents.count
            version = RetainedVersion(contents: contents, attributes: attributes)
        } catch {
            return nil  // not a file of the tree: nothing the kernel could read under that name
        }
        return state.withLock { state -> UInt64? in
            guard state.inodes.inode(atPath: path) == inode else { return nil }
            state.inodes.retain(version, ofInode: inode)
            for handle in state.handles.handles(ofInode: inode) where state.handles[file: handle]?.contents == nil {
                state.handles[file: handle]?.contents = version.contents
            }
            return inode
        }
    }

    /// The rename that retained `inode`'s version failed: the file is still the tree's, and so are its answers.
    private func releaseRetainedVersion(ofInode inode: UInt64?, atPath path: String) {
        guard let inode else { return }
        state.withLock { state in
            guard state.inodes.inode(atPath: path) == inode else { return }
            state.inodes.retain(nil, ofInode: inode)
        }
    }

    /// A file of the tree renamed onto a scratch name: the scratch file gets a copy, the tree keeps its file.
    private func copyToScratch(_ source: String, as destination: String, attributes: NodeAttributes) throws(Errno) {
        let pending = state.withLock { state in
            state.inodes.inode(atPath: source).flatMap { state.handles.pendingFile(ofInode: $0)?.contents }
        }
        let contents: [UInt8]
        if let pending {
            contents = pending
        } else {
            contents = try fromTree { () throws(TreeError) in try tree.contents(ofPath: source) }
        }
        let now = TreeTime.now()
        state.withLock { state in
            state.scratch[destination] = ScratchFile(
                contents: contents, permissions: attributes.permissions,
                modificationTime: attributes.modificationTime, accessTime: now)
            state.inodes.move(source, to: destination)
        }
    }

    /// Whether a handle holds a file created at `path` and not saved yet.
    private func hasUnsavedFile(atPath path: String) -> Bool {
        state.withLock { state in
            guard let inode = state.inodes.inode(atPath: path) else { return false }
            return state.handles.files.values.contains { $0.inode == inode && $0.isUnsaved }
        }
    }
}
