import FileTreeInterface
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage

/// How a file is opened, from `open(2)`'s flags.
struct OpenFlags: Equatable {
    var isWritable: Bool
    /// `O_RDONLY` or `O_RDWR`: the program may read what it opened.
    var isReadable: Bool
    var truncates: Bool
    var appends: Bool
    var isExclusive: Bool

    init(isWritable: Bool, isReadable: Bool? = nil, truncates: Bool = false, appends: Bool = false, isExclusive: Bool = false) {
        self.isWritable = isWritable
        self.isReadable = isReadable ?? !isWritable
        self.truncates = truncates
        self.appends = appends
        self.isExclusive = isExclusive
    }

    init(rawValue flags: Int32) {
        let accessMode = flags & O_ACCMODE
        self.init(
            isWritable: accessMode == O_WRONLY || accessMode == O_RDWR,
            isReadable: accessMode == O_RDONLY || accessMode == O_RDWR,
            truncates: flags & O_TRUNC != 0,
            appends: flags & O_APPEND != 0,
            isExclusive: flags & O_EXCL != 0
        )
    }
}

/// An opened file, as the kernel is told of it.
struct OpenedFile: Equatable {
    var handle: UInt64
    /// The kernel may keep the pages it cached at an earlier open: the contents have not changed since.
    var keepsCache: Bool
    /// Reads and writes bypass the page cache (`direct_io`): for read-only views whose contents change
    /// with every read, such as `.minutafs/status`.
    var bypassesCache: Bool
    /// The kernel sends `flush` at every `close`. Not for a handle opened read-only: it has nothing to save,
    /// and `cat` or `grep` then pay one request less per file (`FOPEN_NOFLUSH`).
    var needsFlush = true
    /// The kernel keeps the listing a directory handle read (`FOPEN_CACHE_DIR`) and serves later `readdir`s
    /// from it, until the directory changes through the mount or is invalidated (see `treeDidChange`).
    var cachesListing = false
}

extension FuseFileSystem {
    /// `lookup`: the attributes of `name` in `parent`, counted as one more reference the kernel holds.
    ///
    /// The attributes and the inode are one answer: a rename that gives the path another inode while the
    /// attributes are read (a save by rename) makes it ask again, so the kernel never gets the new
    /// inode with the old file's size (reads of it would stop there) or the old inode with the new size.
    func lookUp(_ name: String, inDirectory parent: UInt64) throws(Errno) -> NodeAttributes {
        let path = try path(of: name, inDirectory: parent)
        guard let attributes = try attributesCountingInode(ofPath: path) else { throw .noSuchFileOrDirectory }
        return attributes
    }

    /// The attributes of `path` with its inode, counted as one more reference the kernel holds; asked
    /// again when a rename gave the path another inode meanwhile (see `lookUp`).
    private func attributesCountingInode(ofPath path: String) throws(Errno) -> NodeAttributes? {
        try askedAgainAcrossRenames { (isLastTry: Bool) throws(Errno) -> NodeAttributes? in
            let pathGeneration = state.withLock { $0.inodes.pathGeneration }
            var (attributes, fromTree) = try resolvedAttributes(ofPath: path)
            let inode = state.withLock { state -> UInt64? in
                guard state.inodes.pathGeneration == pathGeneration || isLastTry else { return nil }
                let inode = state.inodes.lookUp(path)
                if let fromTree { state.inodes.remember(fromTree.0, ofInode: inode, generation: fromTree.generation) }
                return inode
            }
            guard let inode else { return nil }
            attributes.inode = inode
            return attributes
        }
    }

    /// Runs `attempt` until it answers: it answers nil when a rename of its path raced it (the path's
    /// generation moved). A storm of renames must not hold a request forever: on the last of
    /// `renameRetries` tries (`isLastTry`), the answer it has stands.
    func askedAgainAcrossRenames<Answer>(_ attempt: (_ isLastTry: Bool) throws(Errno) -> Answer?) throws(Errno) -> Answer? {
        for number in 1...Self.renameRetries {
            if let answer = try attempt(number == Self.renameRetries) { return answer }
        }
        return nil
    }

    /// How many times a request raced by renames of its path is asked again (`askedAgainAcrossRenames`).
    static let renameRetries = 8

    /// `forget`: the kernel dropped `count` references to `inode`.
    ///
    /// A file kept empty after its close (`touch new.json`, `FuseFileSystem+EmptyFiles.swift`) exists
    /// only in the mount, by its inode: the kernel forgets that inode whenever a notice makes it look
    /// names up again (another new record saved anywhere), and the file must not go with it. Its path
    /// keeps the number, so the next lookup finds it.
    func forget(_ count: UInt64, ofInode inode: UInt64) {
        state.withLock { state in
            let path = state.inodes.path(ofInode: inode)
            state.inodes.forget(count, ofInode: inode)
            if let path, state.inodes.inode(atPath: path) == nil, state.handles.holdsKept(ofInode: inode) {
                _ = state.inodes.inode(forPath: path)  // gives back the number it just remembered: `inode`
            }
        }
    }

    /// `getattr`.
    ///
    /// Like `lookUp`, the path and the attributes are one answer: a save by rename that detaches this
    /// inode while the tree is asked makes it ask again, and then the inode answers with the version the
    /// rename retained, never with the new file's size.
    func attributes(ofInode inode: UInt64) throws(Errno) -> NodeAttributes {
        enum Local {
            case attributes(NodeAttributes)
            case path(String, pathGeneration: UInt64)
        }
        let answer = try askedAgainAcrossRenames { (isLastTry: Bool) throws(Errno) -> NodeAttributes? in
            // One look, under one lock: a rename retains the old version before it detaches the path, so
            // an inode found without a path has its retained version by then, if it has one.
            let local = try state.withLock { state throws(Errno) -> Local in
                if let retained = state.inodes.retainedVersion(ofInode: inode) {
                    // Replaced by a rename: what it held (see `RetainedVersion`).
                    return .attributes(NodeAttributes(inode: inode, retained.attributes))
                }
                if let path = state.inodes.path(ofInode: inode) {
                    return .path(path, pathGeneration: state.inodes.pathGeneration)
                }
                // An unlinked file that is still open: what its handle holds.
                guard let open = state.handles.files.values.first(where: { $0.inode == inode && $0.contents != nil }) else {
                    throw .noSuchFileOrDirectory
                }
                return .attributes(NodeAttributes(inode: inode, open))
            }
            let path: String
            let pathGeneration: UInt64
            switch local {
            case .attributes(let attributes): return attributes
            case .path(let treePath, let generation): (path, pathGeneration) = (treePath, generation)
            }
            var (attributes, fromTree) = try resolvedAttributes(ofPath: path)
            attributes.inode = inode
            let stands = state.withLock { state -> Bool in
                guard state.inodes.pathGeneration == pathGeneration || isLastTry else { return false }
                if let fromTree { state.inodes.remember(fromTree.0, ofInode: inode, generation: fromTree.generation) }
                return true
            }
            return stands ? attributes : nil
        }
        guard let answer else { throw .noSuchFileOrDirectory }
        return answer
    }

    /// `open` of a file (directories go through `openDirectory`), by `program` when the kernel named it.
    ///
    /// A read-only open of a file of the tree whose attributes the last `lookup`, `getattr` or
    /// `readdirplus` read (and that nothing changed since) does not ask the tree again.
    ///
    /// An open for reading without `O_TRUNC` is noted as `program`'s read of the file at the moment the
    /// open began (`ReadLog`): whatever it reads through this open, from the mount or from the
    /// kernel's pages, is the version served then or later.
    ///
    /// An open through the page cache that does not keep the kernel's pages (the contents changed since it
    /// kept them) drops the kernel's attributes too, before the kernel is answered: its next read then
    /// asks for the size again, and never cuts the new contents at the old size or pads them to it,
    /// whether or not the notice of the change has reached it yet.
    ///
    /// `program` is asked only for an open for writing or of a file whose reads the tree judges saves
    /// by (`FileTree.savesDependOnReads`): a status bar's `cat` of a status file reads no `/proc` file.
    func open(inode: UInt64, flags: OpenFlags, program whoOpens: @autoclosure () -> ProgramID? = nil) throws(Errno) -> OpenedFile {
        let began = ContinuousClock.now
        let opened = try openFile(inode: inode, flags: flags)
        if !opened.keepsCache && !opened.bypassesCache {
            invalidator.invalidate(inode: inode)
        }
        let path = state.withLock { $0.inodes.path(ofInode: inode) }
        let program = (flags.isWritable || (path.map(tree.savesDependOnReads(ofPath:)) ?? true)) ? whoOpens() : nil
        state.withLock { state in
            state.handles[file: opened.handle]?.opener = program
            if let program, flags.isReadable, !(flags.truncates && flags.isWritable) {
                state.noteRead(ofInode: inode, by: program, at: began)
            }
        }
        return opened
    }

    private func openFile(inode: UInt64, flags: OpenFlags) throws(Errno) -> OpenedFile {
        if flags.isWritable && isReadOnly { throw .readOnlyFileSystem }
        let now = TreeTime.now()
        let truncates = flags.truncates && flags.isWritable
        enum Start {
            case opened(OpenedFile)
            case tree(path: String)
        }
        // One look, under one lock (see `attributes(ofInode:)`): an open that found no retained version
        // and then no path would fail with ENOENT for a reader that resolved the name just before a save
        // by rename, about once in 200,000 reads under load.
        let start = try state.withLock { state throws(Errno) -> Start in
            if let opened = state.openRetainedVersion(ofInode: inode, flags: flags, at: now) { return .opened(opened) }
            guard let path = state.inodes.path(ofInode: inode) else { throw .noSuchFileOrDirectory }
            if state.scratch.contains(path) {
                if truncates {
                    state.scratch[path]?.contents = []
                    state.scratch[path]?.modificationTime = now
                }
                let file = OpenFile(inode: inode, isWritable: flags.isWritable, isAppending: flags.appends, modificationTime: now)
                return .opened(state.openWithoutKeptPages(file, flags: flags))
            }
            if let pending = state.handles.pendingFile(ofInode: inode) {
                // Another handle holds unsaved changes: this one starts from them, as it would on a disk.
                var file = OpenFile(
                    inode: inode, isWritable: flags.isWritable, isAppending: flags.appends,
                    contents: pending.contents, modificationTime: pending.modificationTime)
                if truncates {
                    file.change({ $0 = [] }, at: now)
                    file.awaitsFirstWrite = true
                }
                // A record created and closed empty a moment ago (`touch`): this handle is that file now.
                _ = state.takeOverKeptEmptyFile(ofInode: inode, into: &file)
                return .opened(state.openWithoutKeptPages(file, flags: flags, bypassesCache: true))
            }
            if !flags.isWritable, let attributes = state.inodes.treeAttributes(ofInode: inode), !attributes.isDirectory {
                return .opened(state.openTreeFile(inode: inode, attributes: attributes, flags: flags, at: now))
            }
            return .tree(path: path)
        }
        let path: String
        switch start {
        case .opened(let opened): return opened
        case .tree(let treePath): path = treePath
        }

        let generation = state.withLock { $0.inodes.attributeGeneration }
        let attributes = try fromTree { () throws(TreeError) in try tree.attributes(ofPath: path) }
        if attributes.isDirectory { throw .isDirectory }
        if flags.isWritable && !attributes.isWritable { throw isInReadOnlyDirectory(path) ? .readOnlyFileSystem : .permissionDenied }
        return state.withLock { state in
            // Replaced by a rename while the tree was asked: the version the rename kept, not the new file's.
            if let opened = state.openRetainedVersion(ofInode: inode, flags: flags, at: now) { return opened }
            state.inodes.remember(attributes, ofInode: inode, generation: generation)
            return state.openTreeFile(inode: inode, attributes: attributes, flags: flags, at: now)
        }
    }

    /// `read`: up to `length` bytes from `offset`, from the handle's snapshot of the file (taken at the
    /// first read, and again at a read from the start once the file changed), its unsaved changes, or the
    /// scratch file.
    func read(handle: UInt64, from offset: Int, length: Int) throws(Errno) -> [UInt8] {
        enum Attempt {
            case read([UInt8])
            case needsContents(path: String)
        }
        while true {
            let attempt = try state.withLock { state throws(Errno) -> Attempt in
                if offset == 0, state.handles[file: handle]?.isOutdated == true {
                    state.handles[file: handle]?.contents = nil
                    state.handles[file: handle]?.isOutdated = false
                }
                guard let file = state.handles[file: handle] else { throw .badFileDescriptor }
                if let retained = state.inodes.retainedVersion(ofInode: file.inode) {
                    return .read((file.contents ?? retained.contents).bytes(from: offset, length: length))
                }
                guard let path = state.inodes.path(ofInode: file.inode) else {
                    return .read(file.contents?.bytes(from: offset, length: length) ?? [])
                }
                if let scratch = state.scratch[path] {
                    return .read(scratch.contents.bytes(from: offset, length: length))
                }
                if let contents = file.contents {
                    return .read(contents.bytes(from: offset, length: length))
                }
                return .needsContents(path: path)
            }
            switch attempt {
            case .read(let bytes):
                return bytes
            case .needsContents(let path):
                try loadContents(ofHandle: handle, fromPath: path, missingIsEmpty: false)
            }
        }
    }

    /// `read` without a handle: a read-only mount in the kernel's no-open mode (see
    /// `KernelServer.kernelOpensFiles`). Up to `length` bytes from `offset` of the tree's file.
    ///
    /// The kernel keeps the pages it read (no-open mode implies `keep_cache`) until an inode notice drops
    /// them: changes underneath send one (`treeDidChange`). Read-only views whose contents change with
    /// every read (`.minutafs/status`), opened `direct_io` otherwise, are invalidated after each read so
    /// the next one asks again, size included.
    func read(inode: UInt64, from offset: Int, length: Int) throws(Errno) -> [UInt8] {
        enum Local {
            case retained([UInt8])
            case tree(path: String, remembered: TreeAttributes?)
        }
        // One look, under one lock (see `attributes(ofInode:)`).
        let local = try state.withLock { state throws(Errno) -> Local in
            if let retained = state.inodes.retainedVersion(ofInode: inode) { return .retained(retained.contents) }
            guard let path = state.inodes.path(ofInode: inode) else { throw .noSuchFileOrDirectory }
            return .tree(path: path, remembered: state.inodes.treeAttributes(ofInode: inode))
        }
        let path: String
        let remembered: TreeAttributes?
        switch local {
        case .retained(let contents): return contents.bytes(from: offset, length: length)
        case .tree(let treePath, let treeAttributes): (path, remembered) = (treePath, treeAttributes)
        }
        let attributes: TreeAttributes
        if let remembered {
            attributes = remembered
        } else {
            attributes = try fromTree { () throws(TreeError) in try tree.attributes(ofPath: path) }
        }
        if attributes.isDirectory { throw .isDirectory }
        let contents = try fromTree { () throws(TreeError) in try tree.contents(ofPath: path) }
        if attributes.changesWithoutNotice {
            invalidator.invalidate([.inode(inode)])
        }
        return contents.bytes(from: offset, length: length)
    }

    /// Gives a handle without contents the tree's contents of `path`.
    func loadContents(ofHandle handle: UInt64, fromPath path: String, missingIsEmpty: Bool) throws(Errno) {
        let contents: [UInt8]
        do throws(TreeError) {
            contents = try tree.contents(ofPath: path)
        } catch .notFound where missingIsEmpty {
            contents = []
        } catch {
            throw error.code
        }
        state.withLock { state in
            if state.handles[file: handle]?.contents == nil {
                state.handles[file: handle]?.contents = contents
            }
        }
    }

    /// `opendir`: a handle whose listing the first `readdir` takes. The kernel may keep the listing of a
    /// folder the tree marks writable; a read-only one (`.minutafs/rejected`) changes without a request
    /// of the kernel or a report of the tree, so it is read afresh at every open, as read-only views are.
    func openDirectory(inode: UInt64) throws(Errno) -> OpenedFile {
        let path = try path(ofInode: inode)
        var attributes = state.withLock { $0.inodes.treeAttributes(ofInode: inode) }
        if path != TreePath.root && attributes?.isDirectory != true {
            let asked = try fromTree { () throws(TreeError) in try tree.attributes(ofPath: path) }
            if !asked.isDirectory { throw .notDirectory }
            attributes = asked
        }
        let cachesListing = path == TreePath.root || attributes?.isWritable != false
        let handle = state.withLock { $0.handles.open(directoryListing: []) }
        return OpenedFile(handle: handle, keepsCache: cachesListing, bypassesCache: false, cachesListing: cachesListing)
    }

    /// The listing of a directory handle: taken at a `readdir` from offset 0 (the first one, or after
    /// `rewinddir`); later offsets continue in the same listing.
    func listing(ofDirectoryHandle handle: UInt64, inode: UInt64, fromStart: Bool) throws(Errno) -> [TreeEntry] {
        if !fromStart {
            guard let listing = state.withLock({ $0.handles[directory: handle] }) else { throw .badFileDescriptor }
            return listing
        }
        let listing = try listing(ofInode: inode)
        state.withLock { $0.handles[directory: handle] = listing }
        return listing
    }

    func closeDirectory(handle: UInt64) {
        state.withLock { $0.handles.close(directory: handle) }
    }

    /// `.`, `..`, the tree's entries, then the scratch files and the files not yet saved.
    private func listing(ofInode inode: UInt64) throws(Errno) -> [TreeEntry] {
        let path = try path(ofInode: inode)
        let treeEntries = try fromTree { () throws(TreeError) in try tree.entries(inDirectory: path) }
        var listing = [TreeEntry(name: ".", isDirectory: true), TreeEntry(name: "..", isDirectory: true)]
        // Names compared byte for byte (`ExactPath`), as the tree's files are.
        let directory = ExactPath(path)
        let (removed, localNames): (Set<ExactPath>, [String]) = state.withLock { state in
            let removed = Set(state.pendingRemovals.keys.filter { ExactPath(TreePath.parent(of: $0.path)) == directory }.map { ExactPath(TreePath.name(of: $0.path)) })
            var local = state.scratch.names(inDirectory: path)
            for file in state.handles.files.values where file.isUnsaved {
                if let filePath = state.inodes.path(ofInode: file.inode), ExactPath(TreePath.parent(of: filePath)) == directory {
                    local.append(TreePath.name(of: filePath))
                }
            }
            return (removed, local)
        }
        listing += removed.isEmpty ? treeEntries : treeEntries.filter { !removed.contains(ExactPath($0.name)) }
        guard !localNames.isEmpty else { return listing }
        var names = Set(listing.map { ExactPath($0.name) })
        for name in localNames where names.insert(ExactPath(name)).inserted {
            listing.append(TreeEntry(name: name, isDirectory: false))
        }
        return listing
    }

    /// The attributes of an entry of a `readdirplus` reply, with its inode number, counted as one more
    /// reference the kernel holds (as a lookup is); nil if it went away since the listing was taken. An
    /// entry that is then left out of the reply gives its reference back (`returnReferences`).
    ///
    /// Counted here, under the same lock that gives the number, and not once the reply is built: in
    /// between, a save by rename could detach that inode and the kernel forget it, so the table dropped
    /// it, while the kernel, given the number by this reply, would later open an inode the mount no longer
    /// knew (`ENOENT` for a reader of a record being saved, about once in 30,000 reads under load).
    /// Like `lookUp`, the attributes and the inode are one answer (asked again across a rename).
    func listedAttributes(of name: String, inDirectory parent: UInt64) -> NodeAttributes? {
        guard let path = try? path(of: name, inDirectory: parent) else { return nil }
        return (try? attributesCountingInode(ofPath: path)) ?? nil
    }

    /// `listedAttributes(of:inDirectory:)` for several entries of one listing (those of one `readdirplus`
    /// reply), asking the tree for all of them at once; asked again when a rename in between gave one of
    /// the paths another inode (see `lookUp`).
    func listedAttributes(of names: [String], inDirectory parent: UInt64) -> [NodeAttributes?] {
        let answer = try? askedAgainAcrossRenames { (isLastTry: Bool) throws(Errno) -> [NodeAttributes?]? in
            listedAttributesOnce(of: names, inDirectory: parent, evenAcrossRenames: isLastTry)
        }
        return (answer ?? nil) ?? names.map { _ in nil }
    }

    /// One try of `listedAttributes(of:inDirectory:)`: nil when a path moved to another inode while the
    /// tree was asked (unless `evenAcrossRenames`).
    private func listedAttributesOnce(
        of names: [String], inDirectory parent: UInt64, evenAcrossRenames: Bool
    ) -> [NodeAttributes?]? {
        guard let directory = try? path(ofInode: parent) else { return names.map { _ in nil } }
        let paths = names.map { TreePath.appending($0, to: directory) }
        enum Local {
            case attributes(NodeAttributes)
            case gone
            case tree
        }
        let (locals, generation, pathGeneration) = state.withLock { state in
            let locals = paths.map { path -> Local in
                if let file = state.scratch[path] { return .attributes(NodeAttributes(file)) }
                if let inode = state.inodes.inode(atPath: path), let attributes = state.unsavedAttributes(ofInode: inode) {
                    return .attributes(attributes)
                }
                if let inode = state.inodes.inode(atPath: path), let retained = state.inodes.retainedVersion(ofInode: inode) {
                    return .attributes(NodeAttributes(retained.attributes))  // a rename is replacing it
                }
                return state.pendingRemovals[ExactPath(path)] != nil ? .gone : .tree
            }
            return (locals, state.inodes.attributeGeneration, state.inodes.pathGeneration)
        }
        let treeIndices = locals.indices.filter { if case .tree = locals[$0] { true } else { false } }
        var fromTree: [TreeAttributes?] = Array(repeating: nil, count: names.count)
        if !treeIndices.isEmpty {
            let found = tree.attributes(ofEntries: treeIndices.map { names[$0] }, inDirectory: directory)
            for (index, attributes) in zip(treeIndices, found) { fromTree[index] = attributes }
        }
        return state.withLock { state -> [NodeAttributes?]? in
            guard state.inodes.pathGeneration == pathGeneration || evenAcrossRenames else { return nil }
            return paths.indices.map { index -> NodeAttributes? in
                var attributes: NodeAttributes
                switch locals[index] {
                case .gone: return nil
                case .attributes(let local): attributes = local
                case .tree:
                    guard let found = fromTree[index] else { return nil }
                    attributes = NodeAttributes(found)
                }
                attributes.inode = state.inodes.lookUp(paths[index])
                if let found = fromTree[index] {
                    state.inodes.remember(found, ofInode: attributes.inode, generation: generation)
                }
                return attributes
            }
        }
    }

    /// The inode number of an entry of a listing, for `readdir` (given one if it has none).
    func listedInode(of name: String, inDirectory parent: UInt64) -> UInt64 {
        guard let path = try? path(of: name, inDirectory: parent) else { return 0 }
        return state.withLock { $0.inodes.inode(forPath: path) }
    }

    /// Entries given attributes (and a reference) by `listedAttributes` that did not go into the reply: the
    /// kernel never got them, so their references are given back.
    func returnReferences(toInodes inodes: [UInt64]) {
        state.withLock { state in
            for inode in inodes { state.inodes.forget(1, ofInode: inode) }
        }
    }

    /// `getxattr` and `listxattr`: the tree's extended attributes; scratch files have none.
    func extendedAttribute(named name: String, ofInode inode: UInt64) throws(Errno) -> [UInt8]? {
        let path = try path(ofInode: inode)
        if isScratch(path) { return nil }
        return tree.extendedAttribute(named: name, ofPath: path)
    }

    func extendedAttributes(ofInode inode: UInt64) throws(Errno) -> [String: [UInt8]] {
        let path = try path(ofInode: inode)
        if isScratch(path) { return [:] }
        return tree.extendedAttributes(ofPath: path)
    }

    /// `access`: whether the file exists and, for `W_OK`, can be written.
    func checkAccess(inode: UInt64, mask: Int32) throws(Errno) {
        let attributes = try attributes(ofInode: inode)
        guard mask & W_OK != 0 else { return }
        if isReadOnly { throw .readOnlyFileSystem }
        if !attributes.isDirectory && attributes.permissions & 0o200 == 0 { throw .permissionDenied }
    }
}

extension FuseFileSystem.MountState {
    /// Notes `program`'s read of the tree's file `inode` (not of a scratch file: the tree never sees those).
    mutating func noteRead(ofInode inode: UInt64, by program: ProgramID, at instant: ContinuousClock.Instant) {
        guard let path = inodes.path(ofInode: inode), !scratch.contains(path) else { return }
        reads.noteRead(of: path, by: program, at: instant)
    }

    /// Opens a handle on the version a rename retained for `inode` (a program resolved the name just
    /// before the rename): the old version, as on a disk. Nil when the inode has none.
    mutating func openRetainedVersion(ofInode inode: UInt64, flags: OpenFlags, at now: TreeTime) -> OpenedFile? {
        guard let version = inodes.retainedVersion(ofInode: inode) else { return nil }
        var file = OpenFile(
            inode: inode, isWritable: flags.isWritable, isAppending: flags.appends,
            contents: version.contents, modificationTime: version.attributes.modificationTime)
        if flags.truncates && flags.isWritable { file.change({ $0 = [] }, at: now) }
        return openWithoutKeptPages(file, flags: flags)
    }

    /// Opens a handle on `file`, whose bytes are the mount's own (a scratch file, unsaved changes, a
    /// retained version): the kernel drops the pages it kept for the inode. A handle on a file of the
    /// tree that may be written reads past the page cache (`bypassesCache`, see `openTreeFile`).
    mutating func openWithoutKeptPages(_ file: OpenFile, flags: OpenFlags, bypassesCache: Bool = false) -> OpenedFile {
        OpenedFile(handle: handles.open(file), keepsCache: false, bypassesCache: bypassesCache, needsFlush: flags.isWritable)
    }

    /// Opens a handle on a file of the tree with these attributes (a handle from `O_TRUNC` starts empty),
    /// keeping the kernel's pages if they hold these contents already.
    ///
    /// A file the tree lets programs write (a record, `tags.json`, an image) is read past the page cache
    /// (`direct_io`), every handle from its own bytes: each handle reads one version of the file (the one
    /// it first read, or its own unsaved bytes), whatever its size in the kernel. Through the page cache,
    /// a reader's pages came from its handle's version while the size came from whoever changed it last:
    /// a writer saving in place truncates the file to 0 at its `open(O_TRUNC)` and grows it with each
    /// `write`, so a reader that had taken the old version got it cut at the new length, or padded with
    /// NUL bytes up to it (and left those pages for the next reader). The cost: reads of those files are
    /// requests, not page cache hits (two per small file: its bytes, then the end).
    mutating func openTreeFile(inode: UInt64, attributes: TreeAttributes, flags: OpenFlags, at now: TreeTime) -> OpenedFile {
        var file = OpenFile(
            inode: inode, isWritable: flags.isWritable, isAppending: flags.appends,
            modificationTime: attributes.modificationTime)
        if flags.truncates && flags.isWritable {
            file.change({ $0 = [] }, at: now)
            file.awaitsFirstWrite = true
        }
        let stamp = ContentStamp(size: attributes.size, modificationTime: attributes.modificationTime)
        let cacheable = !attributes.changesWithoutNotice
        let keepsCache = cacheable && inodes.cachedContent(ofInode: inode) == stamp
        inodes.setCachedContent(cacheable ? stamp : nil, ofInode: inode)
        return OpenedFile(
            handle: handles.open(file), keepsCache: keepsCache, bypassesCache: !cacheable || attributes.isWritable,
            needsFlush: flags.isWritable)
    }
}
