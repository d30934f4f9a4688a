import FileTreeInterface
import Synchronization
import SystemPackage

/// The file system one mount serves: a `FileTree` plus what the mount keeps itself (inode numbers, open
/// handles with their unsaved bytes, scratch files), in the terms of the kernel's requests but without C.
///
/// Every request handler thread of libfuse calls in here at once. All mutable state is one `MountState`
/// behind one `Mutex`; the tree is only ever called with that lock released, so the tree may call the
/// change handler (and through it, this file system) from inside any of its methods.
final class FuseFileSystem: Sendable {
    let tree: any FileTree
    let isReadOnly: Bool
    let invalidator: any KernelCacheInvalidating
    /// Where errors the kernel cannot pass on (a save failing at release) are reported.
    let log: @Sendable (String) -> Void

    /// How long the tree's removal of an unlinked file waits (see `unlink`).
    let removalDelay: Double
    /// How long a settling scratch file waits after its last close (see `FuseFileSystem+Settling.swift`).
    let settleDelay: Double
    /// How long an empty file the tree does not save stays after its close (see `FuseFileSystem+EmptyFiles.swift`).
    let emptyFileLifetime: Double
    /// Where work the mount deferred after answering 0 is kept until it is done (see
    /// `FuseFileSystem+Journal.swift`); nil keeps it in memory only (tests that mount in-process).
    let journal: DeferredWorkJournal?
    let state = Mutex(MountState())
    /// A lock per handle, held for the whole of a save of it (`save(handle:isFlush:repeatsRefusal:)`):
    /// see `HandleSaveLocks`.
    let saving = HandleSaveLocks()

    struct MountState {
        var inodes = InodeTable()
        var handles = FileHandleTable()
        var scratch = ScratchFiles()
        /// Files unlinked but not yet removed from the tree, with the token of their removal.
        var pendingRemovals: [ExactPath: UInt64] = [:]
        /// The identity (`FileTree.identity(ofContents:atPath:)`) of the file each pending removal is of,
        /// by its token: a save of a file of that identity at any name drops the removal (`dropRemovals(ofIdentity:)`).
        var removalIdentities: [UInt64: String] = [:]
        var nextRemovalToken: UInt64 = 1
        /// Tokens of `pendingRemovals` that only hide a file for a while and then show it again: a file of
        /// the tree renamed onto a scratch name (a backup) until a new version is created at its name.
        var hidingTokens: Set<UInt64> = []
        var nextSettleToken: UInt64 = 1
        /// Paths whose journaled removal a file created there replaced: the removal's journal entry goes
        /// once that file is saved (until then, a killed mount still owes the `rm`).
        var replacedRemovals: Set<ExactPath> = []
        /// The error each removal still waiting to be carried out last failed with, so each is reported once.
        var failedRemovals: [ExactPath: Errno] = [:]
        /// Set when the mount ends: work that fails from then on stays in the journal, not retried here.
        var isEnding = false
        /// Which files each program read, and when: what a save is compared with (SPEC 5b).
        var reads = ReadLog()
        /// Files whose attributes the kernel was given from a handle's unsaved bytes since their last
        /// save (`unsavedAttributes(ofInode:)`): the kernel may keep that size and time after the save,
        /// so the save drops them (see `saveNow`).
        var attributesAnsweredFromUnsaved: Set<UInt64> = []
    }

    init(
        tree: any FileTree,
        isReadOnly: Bool,
        removalDelay: Double,
        settleDelay: Double = 3,
        emptyFileLifetime: Double = 30,
        journal: DeferredWorkJournal? = nil,
        invalidator: any KernelCacheInvalidating,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.tree = tree
        self.isReadOnly = isReadOnly
        self.removalDelay = removalDelay
        self.settleDelay = settleDelay
        self.emptyFileLifetime = emptyFileLifetime
        self.journal = journal
        self.invalidator = invalidator
        self.log = log
    }

    /// The path `inode` stands for now.
    ///
    /// - Throws: `ENOENT` when the kernel asks about an inode whose file is gone.
    func path(ofInode inode: UInt64) throws(Errno) -> String {
        guard let path = state.withLock({ $0.inodes.path(ofInode: inode) }) else {
            throw .noSuchFileOrDirectory
        }
        return path
    }

    /// The path of `name` in directory `parent`.
    func path(of name: String, inDirectory parent: UInt64) throws(Errno) -> String {
        TreePath.appending(name, to: try path(ofInode: parent))
    }

    /// What `stat` shows for `path` now (with inode 0): a scratch file, a file with unsaved changes in an
    /// open handle, or the tree's file (unless it was unlinked and its removal is pending).
    func attributes(ofPath path: String) throws(Errno) -> NodeAttributes {
        try resolvedAttributes(ofPath: path).attributes
    }

    /// `attributes(ofPath:)`, and the tree's own attributes when they come from the tree, with the inode
    /// table's `attributeGeneration` from before the tree was asked (for `InodeTable.remember`).
    func resolvedAttributes(ofPath path: String) throws(Errno) -> (attributes: NodeAttributes, tree: (TreeAttributes, generation: UInt64)?) {
        enum Local {
            case attributes(NodeAttributes)
            case tree(generation: UInt64)
        }
        let local = try state.withLock { state throws(Errno) -> Local in
            if let file = state.scratch[path] { return .attributes(NodeAttributes(file)) }
            if let inode = state.inodes.inode(atPath: path), let attributes = state.unsavedAttributes(ofInode: inode) {
                return .attributes(attributes)
            }
            if let inode = state.inodes.inode(atPath: path), let retained = state.inodes.retainedVersion(ofInode: inode) {
                // A rename is replacing it: the name shows the old version until its reply.
                return .attributes(NodeAttributes(retained.attributes))
            }
            if state.pendingRemovals[ExactPath(path)] != nil { throw .noSuchFileOrDirectory }
            return .tree(generation: state.inodes.attributeGeneration)
        }
        switch local {
        case .attributes(let attributes):
            return (attributes, nil)
        case .tree(let generation):
            let attributes = try fromTree { () throws(TreeError) in try tree.attributes(ofPath: path) }
            return (NodeAttributes(attributes), (attributes, generation))
        }
    }

    /// Whether `path` names a file the mount keeps itself.
    func isScratch(_ path: String) -> Bool {
        state.withLock { $0.scratch.contains(path) }
    }

    /// Whether `path` lies in a directory the tree marks not writable: a read-only view (the store's
    /// `reports/`), where every change fails with `EROFS` rather than `EACCES`.
    func isInReadOnlyDirectory(_ path: String) -> Bool {
        let directory = TreePath.parent(of: path)
        guard directory != TreePath.root, let attributes = try? tree.attributes(ofPath: directory) else { return false }
        return attributes.isDirectory && !attributes.isWritable
    }

    /// Whether `path` is part of a read-only view: a folder the tree marks not writable, or a file
    /// that is not writable in such a folder (`.minutafs/history/`, `reports/`, and what is in them).
    func isReadOnlyView(_ path: String) -> Bool {
        guard path != TreePath.root, let attributes = try? tree.attributes(ofPath: path), !attributes.isWritable else { return false }
        return attributes.isDirectory || isInReadOnlyDirectory(path)
    }

    /// Calls the tree, turning its error into the C error the kernel passes on.
    func fromTree<Value>(_ body: () throws(TreeError) -> Value) throws(Errno) -> Value {
        do throws(TreeError) {
            return try body()
        } catch {
            throw error.code
        }
    }

    /// The tree reported that paths changed underneath: forget what the mount and the kernel cached.
    ///
    /// Open handles without unsaved changes read the new contents from their next read from the start
    /// (they finish the version they were reading, see `OpenFile.isOutdated`); handles with
    /// unsaved changes keep them (their save will win, as with any two writers).
    ///
    /// The kernel forgets the names it cached only when a name may have changed: dropping names makes it
    /// look up every name it cached again (`KernelCacheNotifier`), four requests for the next open of a
    /// record. A change that keeps every name (a record's contents saved in place) drops the attributes of
    /// the paths it names only, not their folders' (which it names when their times changed).
    func treeDidChange(_ change: TreeChange) {
        let (notices, yielded) = state.withLock { state -> ([KernelCacheNotice], [String]) in
            // A reported directory stands for its files too (their names, times, contents).
            state.inodes.forgetTreeAttributes()
            var notices: [KernelCacheNotice] = []
            var yielded: [String] = []
            for path in change.paths {
                if state.yieldKeptEmptyFile(atPath: path) { yielded.append(path) }
                if let inode = state.inodes.inode(atPath: path) {
                    state.forgetCachedContent(ofInode: inode)
                    notices.append(.inode(inode))
                }
                // A folder's listing and attributes change with its names; a change that keeps every name
                // names each folder whose attributes changed (a month's time) itself.
                if !change.keepsNames, path != TreePath.root, let parent = state.inodes.inode(atPath: TreePath.parent(of: path)) {
                    notices.append(.entry(parent: parent, name: TreePath.name(of: path)))
                    notices.append(.inode(parent))
                }
            }
            return (notices, yielded)
        }
        for path in yielded {
            log("\(path): the empty file created there gave way to the file the folder now has under that name")
        }
        // Sent before this returns: a save's answer waits for it, so the program's next `readdir` lists the
        // names the save gave (`KernelCacheInvalidating`).
        invalidator.invalidate(notices)
    }
}

extension FuseFileSystem.MountState {
    /// What `stat` shows for `inode` while a handle holds unsaved bytes of it (the handle's size and
    /// time), noted in `attributesAnsweredFromUnsaved`; nil when no handle does.
    mutating func unsavedAttributes(ofInode inode: UInt64) -> NodeAttributes? {
        guard let file = handles.pendingFile(ofInode: inode) else { return nil }
        attributesAnsweredFromUnsaved.insert(inode)
        return NodeAttributes(inode: 0, file)
    }

    /// The contents of `inode` changed: the kernel's page cache must not be kept at the next open, and
    /// handles without unsaved changes take the new contents at their next read from the start or
    /// write (`OpenFile.isOutdated`); until then they finish reading the version they have.
    mutating func forgetCachedContent(ofInode inode: UInt64) {
        inodes.setCachedContent(nil, ofInode: inode)
        inodes.forgetTreeAttributes(ofInode: inode)
        for handle in handles.handles(ofInode: inode) where handles[file: handle]?.isDirty == false {
            if handles[file: handle]?.contents != nil { handles[file: handle]?.isOutdated = true }
        }
    }
}

extension FuseFileSystem.MountState {
    /// Drops the pending removals of files of `identity` (not a backup's hiding, which is no removal)
    /// and forgets the identities of removals no longer pending; returns the paths whose removal was dropped.
    mutating func dropRemovals(ofIdentity identity: String) -> [String] {
        var dropped: [String] = []
        for (key, token) in pendingRemovals where removalIdentities[token] == identity && !hidingTokens.contains(token) {
            pendingRemovals[key] = nil
            failedRemovals[key] = nil
            dropped.append(key.path)
        }
        let pending = Set(pendingRemovals.values)
        removalIdentities = removalIdentities.filter { pending.contains($0.key) }
        return dropped
    }
}
