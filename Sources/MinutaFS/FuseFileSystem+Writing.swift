import FileTreeInterface
import SystemPackage

/// The attribute changes of a `setattr` request.
struct AttributeChanges: Equatable {
    var size: Int?
    var permissions: UInt32?
    var accessTime: TreeTime?
    var modificationTime: TreeTime?
    /// A `chown`: accepted and ignored for the tree's files (vim's `fchown` of its files to the user they
    /// already belong to), refused in read-only views.
    var changesOwner = false
}

extension FuseFileSystem {
    /// `create`: opens `name` in `parent`, making it if it does not exist.
    ///
    /// A name the tree accepts becomes a file that exists only in the returned handle until its first save;
    /// any other name becomes a scratch file.
    func create(
        _ name: String, inDirectory parent: UInt64, permissions: UInt32, flags: OpenFlags, program: ProgramID? = nil
    ) throws(Errno) -> (NodeAttributes, OpenedFile) {
        let created = try createFile(name, inDirectory: parent, permissions: permissions, flags: flags, program: program)
        state.withLock { $0.handles[file: created.1.handle]?.opener = program }
        return created
    }

    private func createFile(
        _ name: String, inDirectory parent: UInt64, permissions: UInt32, flags: OpenFlags, program: ProgramID?
    ) throws(Errno) -> (NodeAttributes, OpenedFile) {
        if isReadOnly { throw .readOnlyFileSystem }
        let directory = try path(ofInode: parent)
        let path = TreePath.appending(name, to: directory)
        // A month whose document does not load, a store folder that is gone: no new file, scratch or not.
        try fromTree { () throws(TreeError) in try tree.checkWritable(atPath: path) }
        if directory != TreePath.root {
            let directoryAttributes = try fromTree { () throws(TreeError) in try tree.attributes(ofPath: directory) }
            if !directoryAttributes.isDirectory { throw .notDirectory }
            // A read-only view of the tree (the store's reports) takes no new files, not even scratch files.
            if !directoryAttributes.isWritable { throw .readOnlyFileSystem }
        }
        do throws(Errno) {
            var existing = try attributes(ofPath: path)
            if flags.isExclusive { throw .fileExists }
            if existing.isDirectory { throw .isDirectory }
            existing.inode = state.withLock { $0.inodes.lookUp(path) }
            let opened = try open(inode: existing.inode, flags: flags, program: program)
            return (try attributes(ofInode: existing.inode), opened)
        } catch where error != .noSuchFileOrDirectory {
            throw error
        } catch {
            // Not there: make it below.
        }

        let accepted = tree.accepts(fileNamed: name, inDirectory: directory)
        let settles = !accepted && tree.settles(fileNamed: name, inDirectory: directory)
        let now = TreeTime.now()
        return state.withLock { state in
            let inode = state.inodes.lookUp(path)
            var file = OpenFile(inode: inode, isWritable: flags.isWritable, isAppending: flags.appends, modificationTime: now)
            let attributes: NodeAttributes
            if accepted {
                // Replacing a file unlinked a moment ago: its save will be an update, not a re-create.
                // The removal's journal entry stays until that save is done.
                if state.pendingRemovals.removeValue(forKey: ExactPath(path)) != nil { state.replacedRemovals.insert(ExactPath(path)) }
                file.change({ $0 = [] }, at: now)
                file.isUnsaved = true
                file.awaitsFirstWrite = true
                state.inodes.setCachedContent(nil, ofInode: inode)
                attributes = NodeAttributes(inode: inode, file)
            } else {
                let scratch = ScratchFile(permissions: permissions & 0o7777, modificationTime: now, accessTime: now, settles: settles)
                state.scratch[path] = scratch
                attributes = NodeAttributes(inode: inode, scratch)
            }
            let handle = state.handles.open(file)
            return (attributes, OpenedFile(handle: handle, keepsCache: false, bypassesCache: false))
        }
    }

    /// `write`: changes the handle's bytes (or the scratch file's); nothing reaches the tree before a save.
    ///
    /// - Throws: `EFBIG` when the file would grow past the tree's limit for its path: nothing is kept
    ///   (see ``refuseOversized(handle:path:)``).
    func write(_ bytes: [UInt8], handle: UInt64, at offset: Int) throws(Errno) {
        enum Attempt {
            case written
            case needsContents(path: String)
            case tooLarge(path: String?)
        }
        let now = TreeTime.now()
        let limit = try maximumSize(ofHandle: handle)
        while true {
            let attempt = try state.withLock { state throws(Errno) -> Attempt in
                // A write changes the current version, not the one an outdated handle was reading.
                if state.handles[file: handle]?.isOutdated == true {
                    state.handles[file: handle]?.contents = nil
                    state.handles[file: handle]?.isOutdated = false
                }
                // Only the handle's flags and size are read here: a copy of the handle would share
                // its bytes, and the write below would then copy them all.
                guard let (inode, isAppending, isOversized, size) = state.handles[file: handle].flatMap({ file in
                    file.isWritable ? (file.inode, file.isAppending, file.isOversized, file.contents?.count) : nil
                }) else { throw .badFileDescriptor }
                let path = state.inodes.path(ofInode: inode)
                if let path, state.scratch.contains(path) {
                    let end = state.scratch[path]?.contents.count ?? 0
                    guard (isAppending ? end : offset) <= limit - bytes.count else { throw .fileTooLarge }
                    state.scratch[path]?.contents.write(bytes, at: isAppending ? end : offset, capacityLimit: limit)
                    state.scratch[path]?.modificationTime = now
                    return .written
                }
                if isOversized { throw .fileTooLarge }
                if size == nil, let path { return .needsContents(path: path) }
                guard (isAppending ? size ?? 0 : offset) <= limit - bytes.count else { return .tooLarge(path: path) }
                state.handles[file: handle]?.change({ $0.write(bytes, at: isAppending ? $0.count : offset, capacityLimit: limit) }, at: now)
                return .written
            }
            switch attempt {
            case .written:
                return
            case .needsContents(let path):
                try loadContents(ofHandle: handle, fromPath: path, missingIsEmpty: true)
            case .tooLarge(let path):
                refuseOversized(handle: handle, path: path)
                throw .fileTooLarge
            }
        }
    }

    /// The most bytes the file open as `handle` may hold (the tree's limit for its path).
    private func maximumSize(ofHandle handle: UInt64) throws(Errno) -> Int {
        let path = state.withLock { state in state.handles[file: handle].flatMap { state.inodes.path(ofInode: $0.inode) } }
        guard let path else { throw .badFileDescriptor }
        return tree.maximumFileSize(atPath: path)
    }

    /// A write or truncation past the limit: the handle drops its bytes (so memory stays bounded) and
    /// refuses writes and saves until a truncation within the limit; the file shows what the tree
    /// holds (a file only created by this handle disappears); the tree hears why.
    ///
    /// The kernel holds the inode's lock during `write` and `setattr`, so its caches are dropped
    /// later: by the failing `flush` (see `save`) and by a queued notice.
    private func refuseOversized(handle: UInt64, path: String?) {
        let refused = state.withLock { state -> (inode: UInt64, wasUnsaved: Bool)? in
            guard let file = state.handles[file: handle] else { return nil }
            state.handles[file: handle]?.isOversized = true
            state.handles[file: handle]?.isDirty = false
            state.handles[file: handle]?.isUnsaved = false
            state.handles[file: handle]?.contents = nil
            state.forgetCachedContent(ofInode: file.inode)
            return (file.inode, file.isUnsaved)
        }
        guard let refused, let path else { return }
        log("\(path): a write past \(tree.maximumFileSize(atPath: path)) bytes was refused (EFBIG); nothing of it was saved")
        tree.didRefuseOversizedWrite(toPath: path)
        var notices: [KernelCacheNotice] = [.inode(refused.inode)]
        if refused.wasUnsaved, let parent = state.withLock({ $0.inodes.inode(atPath: TreePath.parent(of: path)) }) {
            notices.append(.entry(parent: parent, name: TreePath.name(of: path)))
            notices.append(.inode(parent))  // the folder's listing the kernel may keep
        }
        invalidator.invalidate(notices)
    }

    /// `flush`, `fsync` and `release`: gives the tree the handle's bytes if they changed since the last save.
    ///
    /// A `flush` (`isFlush`) of a handle that was only created or truncated, with nothing written yet, saves
    /// nothing: it is a shell closing its own descriptor after `dup2` in `cmd > file`; the command's
    /// writes follow. `fsync` and `release` save it.
    ///
    /// Saves of one handle run one at a time (`saving`): a second close of the same handle waits for the
    /// first. Saves of other handles do not wait for it.
    ///
    /// - Throws: the tree's refusal (`EINVAL` for content it does not accept), for the program's `close`
    ///   or `fsync`. The handle then drops its bytes: the file shows what the tree holds. Until the next
    ///   write, every later flush or fsync of the handle (`repeatsRefusal`) throws that refusal again
    ///   without asking the tree: it is another descriptor of the same open file learning the save failed.
    ///
    /// The tree hears what the saving program read (`SaveOrigin`): `program` (the one closing or
    /// syncing) or else the handle's opener; once saved, the file counts as read by both.
    func save(handle: UInt64, isFlush: Bool = false, repeatsRefusal: Bool = true, program: ProgramID? = nil) throws(Errno) {
        try saving.withLock(handle: handle) { () throws(Errno) in
            try saveNow(handle: handle, isFlush: isFlush, repeatsRefusal: repeatsRefusal, program: program)
        }
    }

    private func saveNow(handle: UInt64, isFlush: Bool, repeatsRefusal: Bool, program: ProgramID?) throws(Errno) {
        if !isFlush, repeatsRefusal, let inode = state.withLock({ $0.handles[file: handle]?.inode }) {
            // `fsync` of a file held while written: a file of its own is written to the tree now.
            try settleNow(ofInode: inode)
        }
        let scratchPath = state.withLock { state -> String? in
            guard let inode = state.handles[file: handle]?.inode, let path = state.inodes.path(ofInode: inode),
                  state.scratch[path]?.settles == true else { return nil }
            return path
        }
        if let scratchPath {
            // A close of a file held while written: its bytes are journaled before the 0 goes back.
            try journalSettlingFile(atPath: scratchPath)
        }
        enum Plan {
            case nothing
            case refused(Errno)
            case write(path: String, contents: [UInt8], inode: UInt64, changeCount: UInt64, isUnsaved: Bool, origin: SaveOrigin, savers: [ProgramID])
        }
        let oversized = state.withLock { state in state.handles[file: handle].flatMap { $0.isOversized ? $0.inode : nil } }
        if let oversized {
            // The program's close or fsync learns that nothing was saved, and its next stat shows the tree's size.
            invalidator.invalidate(inode: oversized)
            throw .fileTooLarge
        }
        let plan = state.withLock { state -> Plan in
            guard let file = state.handles[file: handle] else { return .nothing }
            guard file.isDirty, let contents = file.contents, !(isFlush && file.awaitsFirstWrite) else {
                if repeatsRefusal, let refusal = file.refusal { return .refused(refusal) }
                return .nothing
            }
            guard let path = state.inodes.path(ofInode: file.inode) else {
                // Unlinked while open: the bytes go nowhere.
                state.handles[file: handle]?.isDirty = false
                return .nothing
            }
            if state.scratch.contains(path) {
                // Renamed onto a scratch name while open.
                state.scratch[path]?.contents = contents
                state.handles[file: handle]?.isDirty = false
                return .nothing
            }
            let savers = [program, file.opener].compactMap { $0 }
            var origin = state.reads.origin(ofSaveTo: path, byAnyOf: savers)
            // Created here, and not over a file unlinked a moment ago (whose save is an update of it).
            origin.createsFile = file.isUnsaved && !state.replacedRemovals.contains(ExactPath(path))
            return .write(path: path, contents: contents, inode: file.inode, changeCount: file.changeCount, isUnsaved: file.isUnsaved,
                          origin: origin, savers: savers)
        }
        if case .refused(let refusal) = plan { throw refusal }
        guard case .write(let path, let contents, let inode, let changeCount, let isUnsaved, let origin, let savers) = plan else { return }

        do throws(TreeError) {
            if let answer = try tree.answer(contents, atPath: path) {
                // A request (`.minutafs/timer`): the handle reads the answer back from its start.
                state.withLock { state in
                    state.handles[file: handle]?.contents = answer
                    if state.handles[file: handle]?.changeCount == changeCount { state.handles[file: handle]?.isDirty = false }
                    state.handles[file: handle]?.isUnsaved = false
                    state.handles[file: handle]?.isOutdated = false
                }
                return
            }
            try tree.write(contents, toPath: path, origin: origin)
        } catch {
            let refusal = error.code
            state.withLock { state in
                state.handles[file: handle]?.isDirty = false
                state.handles[file: handle]?.isUnsaved = false
                state.handles[file: handle]?.contents = nil
                state.handles[file: handle]?.refusal = refusal
                state.forgetCachedContent(ofInode: inode)
                state.attributesAnsweredFromUnsaved.remove(inode)  // the notice below drops them
            }
            invalidator.invalidate(inode: inode)
            if isUnsaved, let parent = state.withLock({ $0.inodes.inode(atPath: TreePath.parent(of: path)) }) {
                // Gone from the folder: its name, and the folder's listing the kernel may keep.
                invalidator.invalidate([.entry(parent: parent, name: TreePath.name(of: path)), .inode(parent)])
            }
            throw refusal
        }
        let saved = ContinuousClock.now
        // What the file shows now, when small enough to compare (a record, `tags.json`): the tree may lay
        // the bytes out otherwise than they were written (JSON indented again).
        // A file this handle created always gets the notice: it is not read back.
        let shown = !isUnsaved && contents.count <= Self.comparedAfterSaveLimit ? try? tree.contents(ofPath: path) : nil
        let kernelIsCurrent = state.withLock { state -> Bool in
            for saver in savers { state.reads.noteRead(of: path, by: saver, at: saved) }
            if state.handles[file: handle]?.changeCount == changeCount {
                state.handles[file: handle]?.isDirty = false
            }
            state.handles[file: handle]?.isUnsaved = false
            state.handles.fileWasSaved(inode: inode, through: handle)
            state.forgetCachedContent(ofInode: inode)
            let answeredFromUnsaved = state.attributesAnsweredFromUnsaved.remove(inode) != nil
            return shown == contents && !isUnsaved && !answeredFromUnsaved && state.handles.pendingFile(ofInode: inode) == nil
        }
        noteSaved(atPath: path)
        dropRemovals(supersededBy: contents, savedAt: path)
        // The kernel must ask for the attributes again unless what it holds is already right. It is when
        // the file shows the bytes written and the kernel was told nothing else since: FUSE drops a file's
        // size and times at each write and asks for them at the next `stat`, and the rest did not change.
        // Not when it was given attributes of unsaved bytes meanwhile (the handle's time, kept until the
        // attributes time out: `SaveAttributesMountTests`), when the file was created by this handle (the
        // attributes of its creation), or when another handle holds unsaved bytes of it. Bytes laid out
        // otherwise than written always send the notice, though the size the kernel asks for again is
        // already the tree's. Sparing it spares the GETATTR of the next `open`.
        if !kernelIsCurrent { invalidator.invalidate(inode: inode) }
    }

    /// The largest file whose bytes a save compares with what the tree then shows (`saveNow`): records
    /// and `tags.json` are far smaller; an image is not read back.
    static let comparedAfterSaveLimit = 256 << 10

    /// `release`: saves what is unsaved, then forgets the handle. A refused save can only be logged: the
    /// program's `close` already returned (flush came first). A file the handle created and left empty,
    /// at a name the tree does not save empty, is kept for a while instead (`keepEmptyUnsavedFile`).
    func release(handle: UInt64) {
        // A record created and closed empty (`touch new.json`): kept, unsaved, for the next open of its name.
        if keepEmptyUnsavedFile(handle: handle) { return }
        do throws(Errno) {
            try save(handle: handle, repeatsRefusal: false)
        } catch .fileTooLarge {
            // Refused and logged when the write failed.
        } catch {
            let path = state.withLock { state in
                state.handles[file: handle].flatMap { state.inodes.path(ofInode: $0.inode) }
            }
            log("release of \(path ?? "an unlinked file"): the tree refused the save: \(error)")
        }
        let closed = state.withLock { $0.handles.close(file: handle) }
        if let closed { scheduleSettling(ofInode: closed.inode) }
    }

    /// Saves every handle with unsaved changes and carries out pending removals (when the mount ends);
    /// refusals are logged.
    func finishPendingWork() {
        state.withLock { $0.isEnding = true }
        saveAll()
        completePendingRemovals()
        settleAll()
    }

    /// What the mount holds that the tree has not had yet, for `FileTree.setPendingWorkReporter`: handles
    /// with unsaved changes, removals waiting out their delay (not the ones that only hide a file for a
    /// while), files held in memory until they settle, and the journal's entries. `finishPendingWork()`
    /// carries out all of them it can.
    func pendingWork() -> PendingWork {
        let (count, removals) = state.withLock { state in
            let removals = Set(state.pendingRemovals.compactMap { state.hidingTokens.contains($0.value) ? nil : $0.key.path })
            let count = state.handles.files.values.count(where: \.isDirty) + removals.count + state.scratch.settlingPaths.count
            return (count, removals)
        }
        return PendingWork(count: count, journalFolder: journal?.folder, journaled: journal?.waiting ?? [], removals: removals)
    }

    /// Saves every handle with unsaved changes; refusals are logged.
    private func saveAll() {
        let handles = state.withLock { state in
            state.handles.files.compactMap { $0.value.isDirty ? $0.key : nil }
        }
        for handle in handles {
            do throws(Errno) {
                try save(handle: handle)
            } catch {
                log("unmount: a file open for writing could not be saved: \(error)")
            }
        }
    }

    /// `setattr`: truncation and, for scratch files, permissions and times. Permission and time changes
    /// of the tree's files are accepted and ignored (rsync and cp set them), so the tree never sees them.
    func setAttributes(ofInode inode: UInt64, handle: UInt64?, _ changes: AttributeChanges) throws(Errno) -> NodeAttributes {
        let path = try path(ofInode: inode)
        if isReadOnly && changes != AttributeChanges() { throw .readOnlyFileSystem }
        // Mode, owner and times of the tree's files are accepted and ignored (editors set them after a
        // save); in a read-only view (`.minutafs/history/`, `reports/`) every change fails (SPEC 8, 9).
        if changes != AttributeChanges() && !isScratch(path) && isReadOnlyView(path) { throw .readOnlyFileSystem }
        let now = TreeTime.now()
        if let size = changes.size, size > tree.maximumFileSize(atPath: path) {
            if let handle, !isScratch(path) { refuseOversized(handle: handle, path: path) } else { tree.didRefuseOversizedWrite(toPath: path) }
            throw .fileTooLarge
        }
        let changedScratch = state.withLock { state -> Bool in
            guard state.scratch.contains(path) else { return false }
            if let size = changes.size {
                state.scratch[path]?.contents.resize(to: size)
                state.scratch[path]?.modificationTime = now
            }
            if let permissions = changes.permissions { state.scratch[path]?.permissions = permissions & 0o7777 }
            if let time = changes.modificationTime { state.scratch[path]?.modificationTime = time }
            if let time = changes.accessTime { state.scratch[path]?.accessTime = time }
            return true
        }
        if changedScratch, changes.size != nil, handle == nil {
            // `truncate FILE` by path: no close will follow, so the new size is journaled now.
            try journalSettlingFile(atPath: path)
        }
        if !changedScratch, let size = changes.size {
            try truncate(inode: inode, path: path, handle: handle, to: size, at: now)
        }
        return try attributes(ofInode: inode)
    }

    /// Truncation of a file of the tree: in the given handle, else in a writable handle open on it (its save
    /// will carry it), else at once with one `write`.
    private func truncate(inode: UInt64, path: String, handle: UInt64?, to size: Int, at now: TreeTime) throws(Errno) {
        let (target, isKeptEmpty) = state.withLock { state -> (UInt64?, Bool) in
            if let handle, state.handles[file: handle]?.isWritable == true { return (handle, false) }
            let handles = state.handles.handles(ofInode: inode)
            let open = handles.first { state.handles[file: $0].map { $0.isWritable && !$0.isKeptAfterClose } == true }
            return (open, handles.contains { state.handles[file: $0]?.isKeptAfterClose == true })
        }
        if target == nil && isKeptEmpty {
            // A record created and closed empty (`touch x.json; truncate -s N x.json`): empty it stays;
            // longer, those bytes are what the tree is asked to save (and refuses: they are no JSON).
            guard size > 0 else { return }
            try fromTree { () throws(TreeError) in try tree.write([UInt8](repeating: 0, count: size), toPath: path) }
            state.withLock { $0.handles.fileWasSaved(inode: inode, through: nil) }
            invalidator.invalidate(inode: inode)
            return
        }
        if let target, size == 0, state.withLock({ $0.handles[file: target].map { $0.isUnsaved && $0.contents?.isEmpty == true } == true }) {
            // Created and still empty (`touch x.json; truncate -s 0 x.json`): nothing changes, and nothing is
            // to save.
            return
        }
        if let target {
            // A truncation within the limit lets a handle refused as too large write again.
            let needsContents = state.withLock { state in
                state.handles[file: target]?.isOversized = false
                if state.handles[file: target]?.isOutdated == true {
                    state.handles[file: target]?.contents = nil  // truncate the current version
                    state.handles[file: target]?.isOutdated = false
                }
                return state.handles[file: target]?.contents == nil
            }
            if needsContents && size > 0 {
                try loadContents(ofHandle: target, fromPath: path, missingIsEmpty: true)
            }
            state.withLock { state in
                state.handles[file: target]?.change({ $0.resize(to: size) }, at: now)
            }
            return
        }
        let attributes = try fromTree { () throws(TreeError) in try tree.attributes(ofPath: path) }
        if attributes.isDirectory { throw .isDirectory }
        if !attributes.isWritable { throw isInReadOnlyDirectory(path) ? .readOnlyFileSystem : .permissionDenied }
        var contents = size == 0 ? [] : try fromTree { () throws(TreeError) in try tree.contents(ofPath: path) }
        contents.resize(to: size)
        try fromTree { () throws(TreeError) in try tree.write(contents, toPath: path) }
        state.withLock { $0.forgetCachedContent(ofInode: inode) }
        invalidator.invalidate(inode: inode)
    }
}
