/// A tree of directories and files that the mount serves through the kernel.
///
/// Paths are absolute within the tree: `/` is the root, `/records/2024/01` a directory in it; no trailing
/// slash, no `.` or `..`. The mount calls these methods from several threads at once and never while holding
/// its own locks, so an implementation may call the change handler from inside any of them.
///
/// The mount keeps *scratch files* itself: any file whose name `accepts(fileNamed:inDirectory:)` refuses
/// (editor swap, backup and temporary files). The tree never hears of them, except as the contents of a
/// `write(_:toPath:)` when one is renamed onto an accepted name.
public protocol FileTree: AnyObject, Sendable {
    /// The names in a directory, without `.` and `..`.
    func entries(inDirectory path: String) throws(TreeError) -> [TreeEntry]

    func attributes(ofPath path: String) throws(TreeError) -> TreeAttributes

    /// The attributes of several names in the directory `path`, in their order: nil for a name that is
    /// not there (any error of `attributes(ofPath:)`). The mount asks for the entries of one `readdirplus`
    /// reply at once, so a tree can look them up together. The default asks `attributes(ofPath:)` for each.
    func attributes(ofEntries names: [String], inDirectory path: String) -> [TreeAttributes?]

    /// The whole contents of a file: exactly `attributes(ofPath:).size` bytes.
    func contents(ofPath path: String) throws(TreeError) -> [UInt8]

    /// Whether the tree itself stores a file with this name in this directory (record JSON names, image
    /// names, `tags.json`).
    ///
    /// Any other name (editor swap/backup/temp files like `.x.swp`, `4913`, `x~`, `#x#`, `sedAbC123`,
    /// `tmpk3j2`, `.x.json.XXXXXX` from rsync, `.goutputstream-ABC`) is a scratch file that the mount keeps
    /// itself, in memory. The answer must depend only on the name and directory, not on what exists.
    func accepts(fileNamed name: String, inDirectory path: String) -> Bool

    /// Whether a scratch file of this name (one `accepts(fileNamed:inDirectory:)` refuses) is something a
    /// user may really be putting there: then, if it is still there ``MountOptions/settleDelay`` seconds
    /// after its last handle closed (it was not renamed onto another name, as a write-then-rename save
    /// does), the mount gives its bytes to the tree with `write(_:toPath:)` and it becomes the tree's
    /// file. The answer must depend only on the name and directory. The default is false: scratch files
    /// stay the mount's until it ends.
    func settles(fileNamed name: String, inDirectory path: String) -> Bool

    /// Whether a settling scratch file (see `settles(fileNamed:inDirectory:)`) holding `contents` is a file
    /// of its own when a program fsyncs it: the mount then gives it to the tree at once and `fsync`
    /// returns only when the tree holds it durably (or fails with the tree's error). Otherwise (the
    /// temporary half of a save, such as a record's JSON under `x.json.tmp`) it stays in memory and
    /// `fsync` returns 0: its rename is the save. The default is false.
    func settlesWhenSynced(_ contents: [UInt8], atPath path: String) -> Bool

    /// Whether a file created at `path` and closed with nothing written (`touch x`, `: > x`) is saved
    /// empty. When it is not (a record, which needs its JSON), the mount keeps the file, empty and
    /// unsaved, for ``MountOptions/emptyFileLifetime`` seconds after its close and then forgets it: the
    /// kernel still holds the name, and the next `open` of it (`touch x.json; cmd > x.json`) must find
    /// the file to write into. The default is true.
    func savesEmptyFile(atPath path: String) -> Bool

    /// Work the mount did after it had told a program it succeeded (`what`: a removal after its grace
    /// period, a file written a while after its last close) failed with `error`; `outcome` says what the
    /// mount kept. The tree records it where users look (an errors file, status). The default does nothing.
    func didFailDeferredWork(_ what: String, error: TreeError, outcome: String)

    /// Creates or replaces a file with new contents.
    ///
    /// Called once per save: when a file written through the mount is flushed, fsynced or closed with
    /// changes, when it is truncated by path, or when a scratch file is renamed onto this name (the
    /// saves of a program go through `write(_:toPath:origin:)`, whose default calls this). The error
    /// goes back to the program's `close`, `fsync`, `truncate` or `rename`; after an error the file shows
    /// what the tree holds.
    func write(_ contents: [UInt8], toPath path: String) throws(TreeError)

    /// `write(_:toPath:)` of a save by a program whose reads of the tree the mount knows (`origin`): a
    /// handle's save, or a file renamed onto `path`. A tree that compares a save with what its writer
    /// read (SPEC 5b) takes it from here. The default ignores `origin`.
    func write(_ contents: [UInt8], toPath path: String, origin: SaveOrigin) throws(TreeError)

    /// A save of a file that is a request rather than contents (the store's `.minutafs/timer`): the
    /// tree carries it out and returns the answer, which the saving handle then reads from its start
    /// (the file's own contents are not changed). Nil for an ordinary save: the mount then calls
    /// `write(_:toPath:origin:)`. The default is nil.
    func answer(_ request: [UInt8], atPath path: String) throws(TreeError) -> [UInt8]?

    func removeFile(atPath path: String) throws(TreeError)

    /// What stays the same about a file holding `contents` at `path` whatever its name: a record's id.
    /// A removal the mount defers after `unlink` (see ``MountOptions/removalDelay``) is of the file's
    /// identity as it was unlinked: a save of a file of the same identity before it is due, at any
    /// name, is an update of that file, and the removal is dropped (`mv` out of the mount and back under
    /// another name; `rm x; cp saved.json y`). Nil for a file that has none. The default is nil.
    func identity(ofContents contents: [UInt8], atPath path: String) -> String?

    /// Throws the error a write or removal of `path` would fail with now, changing nothing: the mount asks
    /// before it defers a removal, so that an `rm` that cannot be carried out fails at once instead of
    /// returning 0 and failing later. The default throws nothing.
    func checkWritable(atPath path: String) throws(TreeError)

    /// Renames a file between two accepted names (an image file, or `mv` of a record view). The mount
    /// refuses directory renames itself (`EPERM`), and never calls this for scratch names.
    func renameFile(from source: String, to destination: String) throws(TreeError)

    func makeDirectory(atPath path: String) throws(TreeError)

    func removeDirectory(atPath path: String) throws(TreeError)

    /// The extended attributes of a file or directory, such as `user.minutafs.id`; empty when there are none
    /// or the path does not exist.
    func extendedAttributes(ofPath path: String) -> [String: [UInt8]]

    /// `extendedAttributes(ofPath:)[name]`, for `getxattr`. The kernel asks every write for
    /// `security.capability`, so a tree whose attributes are costly to gather answers names it does not
    /// have at once. The default gathers them all.
    func extendedAttribute(named name: String, ofPath path: String) -> [UInt8]?

    /// The largest file the tree takes at `path`, in bytes. The mount holds a file's bytes in memory
    /// until it saves them, so a `write` or `truncate` past this size fails with `EFBIG` and keeps
    /// nothing (scratch files are held to the limit of their own path). The answer must depend only
    /// on the path. The default is 1 GiB.
    func maximumFileSize(atPath path: String) -> Int

    /// A program's `write` or `truncate` of `path` failed with `EFBIG` (past ``maximumFileSize(atPath:)``),
    /// so nothing of it reaches the tree; the tree may record why, as it does for content it refuses.
    /// The default does nothing.
    func didRefuseOversizedWrite(toPath path: String)

    /// Registers the function the tree calls, from any thread, with the paths whose contents, attributes or
    /// listings changed other than through `write`/`removeFile`/… of this mount, or differently from what
    /// was written (a sync tool delivered a change; a save renamed a record file; JSON was re-laid out).
    ///
    /// Report every path that changed (``TreeChange``): a file's own path for its contents, the old and new
    /// paths of a file the tree renamed, a directory's path for its listing. The mount drops the kernel's
    /// cached data and attributes for them, and the names it cached unless the change keeps every name
    /// (``TreeChange/keepsNames``). A new registration replaces the previous one.
    func setChangeHandler(_ handler: @escaping @Sendable (TreeChange) -> Void)

    /// Registers the function the tree may call, from any thread, for what the mount holds that has not
    /// reached the tree yet: open handles with unsaved changes, removals waiting out their delay, files
    /// held in memory until they settle (see `settles(fileNamed:inDirectory:)`), and the journal that
    /// keeps them across a killed mount. The tree shows it where users look (a status file). A new
    /// registration replaces the previous one; the mount registers one returning nothing when it ends.
    /// The default ignores it.
    func setPendingWorkReporter(_ reporter: @escaping @Sendable () -> PendingWork)

    /// Whether a program's read of `path` may decide how its later saves are judged (the `SaveOrigin`
    /// of ``write(_:toPath:origin:)``): the files it may save, and the ones it may save from. The mount
    /// learns which program opened a file for reading (a look at `/proc`) only for these. The default
    /// is every path.
    func savesDependOnReads(ofPath path: String) -> Bool
}

extension FileTree {
    public func attributes(ofEntries names: [String], inDirectory path: String) -> [TreeAttributes?] {
        names.map { name in try? attributes(ofPath: TreePath.appending(name, to: path)) }
    }

    public func extendedAttribute(named name: String, ofPath path: String) -> [UInt8]? {
        extendedAttributes(ofPath: path)[name]
    }

    public func maximumFileSize(atPath path: String) -> Int { 1 << 30 }

    public func didRefuseOversizedWrite(toPath path: String) {}

    public func settles(fileNamed name: String, inDirectory path: String) -> Bool { false }

    public func settlesWhenSynced(_ contents: [UInt8], atPath path: String) -> Bool { false }

    public func savesEmptyFile(atPath path: String) -> Bool { true }

    public func checkWritable(atPath path: String) throws(TreeError) {}

    public func identity(ofContents contents: [UInt8], atPath path: String) -> String? { nil }

    public func answer(_ request: [UInt8], atPath path: String) throws(TreeError) -> [UInt8]? { nil }

    public func didFailDeferredWork(_ what: String, error: TreeError, outcome: String) {}

    public func setPendingWorkReporter(_ reporter: @escaping @Sendable () -> PendingWork) {}

    public func savesDependOnReads(ofPath path: String) -> Bool { true }

    public func write(_ contents: [UInt8], toPath path: String, origin: SaveOrigin) throws(TreeError) {
        try write(contents, toPath: path)
    }
}
