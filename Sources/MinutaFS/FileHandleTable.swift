import FileTreeInterface
import SystemPackage

/// A file opened through the mount (one `fuse_file_info.fh`).
///
/// For a file of the tree, the handle holds the whole contents it reads and writes: a snapshot taken at the
/// first read or write (or empty after `O_TRUNC`), changed in memory by `write` and `ftruncate`, and given
/// to the tree in one `write(_:toPath:)` when the handle is flushed, fsynced or released while dirty.
/// A scratch file's handle holds nothing: its reads and writes go to the scratch file itself.
struct OpenFile {
    let inode: UInt64
    let isWritable: Bool
    /// `O_APPEND`: every write goes to the end, whatever offset the kernel passed.
    let isAppending: Bool
    /// The contents this handle works on; nil until first needed, and after a refused save (then the
    /// tree's contents are loaded again). A change of the file keeps them until `isOutdated` says.
    var contents: [UInt8]?
    /// Changed since the last save.
    var isDirty = false
    /// Created by this handle and not yet saved: until then, the file exists only here.
    var isUnsaved = false
    /// Created, or opened with `O_TRUNC`, and nothing written since. A shell opening `> file` closes its
    /// own descriptor after `dup2` before the command writes; that flush must not save an empty file.
    var awaitsFirstWrite = false
    /// A write or truncation past the tree's size limit failed with `EFBIG`: the handle dropped its
    /// bytes, and further writes and saves fail too, until a truncation within the limit.
    var isOversized = false
    /// The tree refused the last save of these bytes with this error. Every later `flush` or `fsync` of
    /// the handle fails the same way until the next change: a descriptor shares the handle with its
    /// copies (`dup`, a forked child's), and whichever of them closes first, the others do not report
    /// a save that never happened as a success.
    var refusal: Errno?
    /// The file changed since `contents` were taken (a save, a change underneath), and nothing of this
    /// handle is unsaved: the handle keeps reading that version to its end, so a read never joins the
    /// start of one version to the rest of another, and takes the current one when it reads from the
    /// start again or writes.
    var isOutdated = false
    /// Counts changes, so a save that raced with a write does not mark the newer bytes clean.
    var changeCount: UInt64 = 0
    var modificationTime: TreeTime
    /// The program that opened the handle, if the kernel named one: whose reads its saves carry.
    var opener: ProgramID?
    /// Released by the kernel while `isUnsaved` and empty (`touch new.json`, `: > new.json`), for a name
    /// the tree does not save empty (`FileTree.savesEmptyFile(atPath:)`): no program holds it, and it is
    /// kept only so the file stays, empty, for the next `open` of the name the kernel still holds (which
    /// takes it over) until it is forgotten (see `FuseFileSystem+EmptyFiles.swift`).
    var isKeptAfterClose = false

    mutating func change(_ modify: (inout [UInt8]) -> Void, at time: TreeTime) {
        var bytes = contents ?? []
        contents = nil  // keeps `bytes` uniquely referenced: no copy of the buffer per write
        modify(&bytes)
        contents = bytes
        isDirty = true
        isOutdated = false
        refusal = nil
        awaitsFirstWrite = false
        changeCount += 1
        modificationTime = time
    }
}

/// The open files and directories of one mount, by handle number.
struct FileHandleTable {
    private(set) var files: [UInt64: OpenFile] = [:]
    private var directories: [UInt64: [TreeEntry]] = [:]
    private var nextHandle: UInt64 = 1

    mutating func open(_ file: OpenFile) -> UInt64 {
        let handle = makeHandle()
        files[handle] = file
        return handle
    }

    subscript(file handle: UInt64) -> OpenFile? {
        get { files[handle] }
        _modify { yield &files[handle] }
    }

    @discardableResult
    mutating func close(file handle: UInt64) -> OpenFile? {
        files.removeValue(forKey: handle)
    }

    mutating func open(directoryListing: [TreeEntry]) -> UInt64 {
        let handle = makeHandle()
        directories[handle] = directoryListing
        return handle
    }

    subscript(directory handle: UInt64) -> [TreeEntry]? {
        get { directories[handle] }
        set { directories[handle] = newValue }
    }

    mutating func close(directory handle: UInt64) {
        directories[handle] = nil
    }

    /// The handle whose unsaved changes stand for the file `inode` (the most recently changed one), if any.
    func pendingFile(ofInode inode: UInt64) -> OpenFile? {
        files.values
            .filter { $0.inode == inode && ($0.isDirty || $0.isUnsaved) && $0.contents != nil }
            .max { $0.modificationTime < $1.modificationTime }
    }

    /// The handles open on `inode`.
    func handles(ofInode inode: UInt64) -> [UInt64] {
        files.compactMap { $0.value.inode == inode ? $0.key : nil }
    }

    /// Whether a handle kept after its close holds the empty file `inode` (`OpenFile.isKeptAfterClose`).
    func holdsKept(ofInode inode: UInt64) -> Bool {
        files.values.contains { $0.inode == inode && $0.isKeptAfterClose }
    }

    /// Closes the handle kept after its close for the empty file `inode` (`OpenFile.isKeptAfterClose`), if
    /// there is one; returns it.
    @discardableResult
    mutating func closeKept(ofInode inode: UInt64) -> OpenFile? {
        guard let handle = files.first(where: { $0.value.inode == inode && $0.value.isKeptAfterClose })?.key else { return nil }
        return files.removeValue(forKey: handle)
    }

    /// `inode` was saved to the tree through `handle` (nil: by the mount itself, through none): it is the
    /// tree's file now. The other handles that
    /// created it and wrote nothing (a `touch` still closing while a shell wrote the file) have nothing of
    /// their own to save, and a kept empty file is forgotten.
    mutating func fileWasSaved(inode: UInt64, through handle: UInt64?) {
        closeKept(ofInode: inode)
        for (other, file) in files where other != handle && file.inode == inode && file.isUnsaved {
            files[other]?.isUnsaved = false
            if file.awaitsFirstWrite { files[other]?.isDirty = false }
        }
    }

    private mutating func makeHandle() -> UInt64 {
        defer { nextHandle += 1 }
        return nextHandle
    }
}
