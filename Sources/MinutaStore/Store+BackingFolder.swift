#if canImport(Glibc)
import Glibc
#endif

/// The backing folder is known by identity, not by path (SPEC 5b): the store remembers the device
/// and inode of the folder it was opened on, and once the folder at its path is another one (moved
/// with `mv`, deleted, replaced by a restore), the store writes nothing more, at the old path or
/// anywhere: every write fails with ``StoreError/backingFolderGone(_:)`` (EROFS through the mount),
/// synchronization stops bringing in files, and the first time it is noticed it goes to
/// `.minutafs/errors`, the log and `.minutafs/status`. What the store holds stays readable.
extension Store {
    /// Device and inode of a folder, following a link at its path (a store may be reached through one).
    struct FolderIdentity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var raw = stat()
            guard stat(path, &raw) == 0, (raw.st_mode & S_IFMT) == S_IFDIR else { return nil }
            device = UInt64(raw.st_dev)
            inode = UInt64(raw.st_ino)
        }
    }

    /// Whether the folder at the store's path is still the one the store was opened on.
    public var backingFolderIsPresent: Bool {
        guard let folderIdentity else { return true }
        return FolderIdentity(path: path) == folderIdentity
    }

    /// Throws ``StoreError/backingFolderGone(_:)`` when the backing folder is not the one the store was
    /// opened on, noting it (once) for `.minutafs/errors`, status and the log. Every write calls it
    /// before it touches the folder.
    public func requireBackingFolder() throws(StoreError) {
        guard !backingFolderIsPresent else { return }
        noteBackingFolderGone()
        throw .backingFolderGone(path)
    }

    /// Throws what a change of the document at `relative` would fail with now: the folder is gone, or the
    /// file is known not to load and is still that version (SPEC 5a).
    public func requireWritableDocument(_ relative: String) throws(StoreError) {
        try requireBackingFolder()
        try requireReadableFile(relative)
    }

    func noteBackingFolderGone() {
        events.noteBackingFolderGone(StoreError.backingFolderGone(path).description)
    }
}
