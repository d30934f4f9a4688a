import FileTreeInterface
import Synchronization
import SystemPackage

/// The store's tree as the mount serves it: every answer in the mount's terms. A `StoreError` becomes
/// the `TreeError` a program gets, here and only here (``TreeError/init(_:writing:)``).
extension StoreView: FileTree {
    public func entries(inDirectory path: String) throws(TreeError) -> [TreeEntry] {
        try answering { () throws(StoreError) in
            try storeEntries(inDirectory: path).map { TreeEntry(name: $0.name, isDirectory: $0.isDirectory) }
        }
    }

    public func attributes(ofPath path: String) throws(TreeError) -> TreeAttributes {
        try answering { () throws(StoreError) in try storeAttributes(ofPath: path) }
    }

    public func contents(ofPath path: String) throws(TreeError) -> [UInt8] {
        try answering { () throws(StoreError) in try storeContents(ofPath: path) }
    }

    /// Saves `contents` at `path`; the other paths the save changed (a record renamed by its new start
    /// time, its month folders, the reports that show it) go to the change handler.
    public func write(_ contents: [UInt8], toPath path: String) throws(TreeError) {
        try write(contents, toPath: path, origin: .unknown)
    }

    /// A save by a program whose reads the mount knows: judged by what it read (SPEC 5b, ``WriterRead``).
    public func write(_ contents: [UInt8], toPath path: String, origin: SaveOrigin) throws(TreeError) {
        let reading = Self.writerRead(origin)
        let change = try answering(writing: true) { () throws(StoreError) in
            try storeWrite(contents, toPath: path, reading: reading, createsFile: origin.createsFile)
        }
        report(change.paths.filter { $0 != path }, keepsNames: change.keepsNames)
    }

    /// What a save's origin says the writer read: a history snapshot read last (after any read of the
    /// saved file) is a restore (`cp` from `.minutafs/history/`); else its last read of the saved file;
    /// else nothing known.
    static func writerRead(_ origin: SaveOrigin) -> WriterRead {
        if let last = origin.lastRead, TreePath.isWithin(last.path, directory: "/.minutafs/history"),
           origin.readOfPath.map({ $0 <= last.instant }) ?? true {
            return .restoring
        }
        return origin.readOfPath.map(WriterRead.at) ?? .unknown
    }

    /// Removes the file at `path`; counted as a change (`changeToken`: `now.json` is rendered again).
    public func removeFile(atPath path: String) throws(TreeError) {
        try answering(writing: true) { () throws(StoreError) in try storeRemoveFile(atPath: path) }
        report([], isChange: true)
    }

    /// A record file's identity is its record's id (`RecordID`: any case is the same record); a record
    /// file without one (a new record) and every other file have none.
    public func identity(ofContents contents: [UInt8], atPath path: String) -> String? {
        guard case .record? = try? place(of: path), case .string(let id)? = try? JSONParser.parse(contents)[RecordField.id.key] else { return nil }
        return RecordID(id).text
    }

    /// A record or `tags.json` whose document is known not to load, or a store whose folder is gone,
    /// takes no change now (`EROFS`).
    public func checkWritable(atPath path: String) throws(TreeError) {
        try answering(writing: true) { () throws(StoreError) in
            switch try? place(of: path) {
            case .record(let month, _)?: try store.requireWritableDocument(month.documentPath)
            case .tags?: try store.requireWritableDocument(DocumentName.tagsPath)
            default: try store.requireBackingFolder()
            }
        }
    }

    /// Renames a file; counted as a change, as a removal is.
    public func renameFile(from source: String, to destination: String) throws(TreeError) {
        try answering(writing: true) { () throws(StoreError) in try storeRenameFile(from: source, to: destination) }
        report([], isChange: true)
    }

    public func makeDirectory(atPath path: String) throws(TreeError) {
        try answering(writing: true) { () throws(StoreError) in try storeMakeDirectory(atPath: path) }
    }

    public func removeDirectory(atPath path: String) throws(TreeError) {
        try answering(writing: true) { () throws(StoreError) in try storeRemoveDirectory(atPath: path) }
    }

    public func extendedAttribute(named name: String, ofPath path: String) -> [UInt8]? {
        // The kernel asks every write for `security.capability`: answered without looking up the record.
        Self.extendedAttributeNames.contains(name) ? extendedAttributes(ofPath: path)[name] : nil
    }

    /// Reads of the files a program may save or restore from decide how its saves are judged (SPEC 5b);
    /// reads of `.minutafs/`'s status and timer files, refused writes and reports do not.
    public func savesDependOnReads(ofPath path: String) -> Bool {
        switch try? place(of: path) {
        case .controlFile?, .rejectedFile?, .report?: false
        default: true
        }
    }

    public func setChangeHandler(_ handler: @escaping @Sendable (TreeChange) -> Void) {
        changeHandler.withLock { $0 = ChangeHandler(call: handler) }
    }

    /// Tells the mount to drop the history snapshot folders `history` let go of (SPEC section 8:
    /// memory stays bounded however many are opened): reported as changed, so the kernel forgets
    /// their names and inodes, and the mount its inode numbers for them once the kernel has.
    func forgetDroppedSnapshots() {
        let dropped = history.takeDroppedFolders()
        guard !dropped.isEmpty else { return }
        report(dropped.map { "/.minutafs/history/" + $0 })
    }

    public func setPendingWorkReporter(_ reporter: @escaping @Sendable () -> PendingWork) {
        pendingWorkReporter.withLock { $0 = PendingWorkReporter(report: reporter) }
    }

    /// Tells the mount which paths changed underneath it; no path and not `isChange` (a pass that found
    /// nothing) is no change. Any change may change what runs, so `now.json` and `now.txt` are reported
    /// with it; the mount is told before `changeToken` moves, so they are rendered again only once the
    /// kernel keeps no page of them it would trust. `keepsNames`: the change renamed, added and removed
    /// nothing (``TreeChange/keepsNames``), so the kernel keeps the names it cached.
    func report(_ paths: [String], isChange: Bool = false, keepsNames: Bool = false) {
        guard !paths.isEmpty || isChange else { return }
        callChangeHandler(TreeChange(paths: paths + TimerControl.nowPaths, keepsNames: keepsNames))
        reportedChanges.add(1, ordering: .relaxed)
    }

    /// Hands `change` to the mount's change handler, if it has one.
    func callChangeHandler(_ change: TreeChange) {
        guard let handler = changeHandler.withLock({ $0 }) else { return }
        handler.call(change)
    }

    /// `writing`: the request would change something, so a document that does not load makes it
    /// fail with `EROFS` (reads of what it holds fail with `EIO`).
    private func answering<T>(writing: Bool = false, _ body: () throws(StoreError) -> T) throws(TreeError) -> T {
        do { return try body() } catch { throw TreeError(error, writing: writing) }
    }
}

extension TreeError {
    /// The error a program gets for a store error. A failed system call passes its own number on when
    /// it means something to the program (a full disk, a read-only folder, a name too long); any other
    /// failure of the backing folder is `EIO`, never a number that would say something else here (an
    /// `EINVAL` of `renameat2` read as refused content).
    public init(_ error: StoreError, writing: Bool) {
        let reason = error.description
        switch error {
        case .unloadableDocument: self.init(writing ? .readOnlyFileSystem : .ioError, reason: reason)
        case .backingFolderGone: self.init(writing ? .readOnlyFileSystem : .ioError, reason: reason)
        case .rejected(_, _, _, .tooLarge): self.init(.fileTooLarge, reason: reason)
        case .rejected: self.init(.invalidArgument, reason: reason)
        case .notFound, .invalidName: self.init(.noSuchFileOrDirectory, reason: reason)
        case .alreadyExists: self.init(.fileExists, reason: reason)
        case .notEmpty: self.init(.directoryNotEmpty, reason: reason)
        case .documentOperationFailed, .notAStore, .legacyStore, .storeInUse, .storeHeldByStuckMount: self.init(.ioError, reason: reason)
        case .system(_, _, let code): self.init(Self.passedOn.contains(code) ? code : .ioError, reason: reason)
        }
    }

    /// The system call failures a program is told as they are.
    static let passedOn: Set<Errno> = [
        .noSpace, .diskQuotaExceeded, .readOnlyFileSystem, .permissionDenied, .notPermitted,
        .noSuchFileOrDirectory, .fileExists, .directoryNotEmpty, .improperLink, .isDirectory,
        .notDirectory, .fileTooLarge, .fileNameTooLong,
    ]
}
